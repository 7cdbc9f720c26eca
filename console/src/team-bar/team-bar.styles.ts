import { css } from 'lit';
import { base } from '../shared/styles.ts';

export const styles = [
  base,
  css`
    :host {
      display: block;
      margin: 0 0 12px;
    }
    .bar {
      display: flex;
      flex-wrap: wrap;
      gap: 8px 12px;
      align-items: end;
    }
    label {
      display: grid;
      gap: 2px;
      font-size: 0.9em;
      min-width: 0;
    }
    select {
      max-width: 100%;
    }
    .status {
      margin: 0;
      padding: 4px 10px;
      border-radius: 999px;
      border: 1px solid var(--c-border);
      background: var(--c-surface);
      font-size: 0.9em;
    }
    .status[data-status='resolved'] {
      color: var(--c-ok);
      border-color: currentColor;
    }
  `,
];
