import { css } from 'lit';
import { base } from '../shared/styles.ts';

export const styles = [
  base,
  css`
    :host {
      display: block;
      max-width: 1200px;
    }
    .toolbar {
      display: flex;
      flex-wrap: wrap;
      gap: 12px;
      align-items: end;
      margin-bottom: 16px;
    }
    .ranges {
      display: flex;
      gap: 6px;
    }
    .ranges button[aria-pressed='true'] {
      background: var(--c-text);
      border-color: var(--c-text);
      color: #fff;
    }
    .totals {
      display: grid;
      grid-template-columns: repeat(auto-fit, minmax(150px, 1fr));
      gap: 10px;
      margin: 0 0 16px;
    }
    .totals div {
      background: #fff;
      border: 1px solid var(--c-border);
      border-radius: 10px;
      padding: 10px 12px;
    }
    dt {
      color: var(--c-muted);
      font-size: 0.85em;
    }
    dd {
      margin: 0;
      font-size: 1.3em;
      font-weight: 700;
    }
    .charts {
      display: grid;
      grid-template-columns: repeat(auto-fit, minmax(min(100%, 480px), 1fr));
      gap: 14px;
    }
  `,
];
