import { css } from 'lit';
import { base } from '../shared/styles.ts';

export const styles = [
  base,
  css`
    :host {
      display: block;
      background: #fff;
      border: 1px solid var(--c-border);
      border-radius: 12px;
      padding: 12px 16px;
    }
    .bar {
      display: flex;
      flex-wrap: wrap;
      gap: 8px 16px;
      align-items: center;
      justify-content: space-between;
    }
    .bar p {
      margin: 0;
    }
    .held {
      font-weight: 700;
      color: var(--c-ok);
    }
    .reply {
      display: grid;
      gap: 6px;
      margin-top: 12px;
    }
    .reply label {
      font-weight: 600;
    }
    .error {
      margin: 6px 0 0;
    }
  `,
];
