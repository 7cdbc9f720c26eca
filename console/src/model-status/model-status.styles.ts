import { css } from 'lit';
import { base } from '../shared/styles.ts';

export const styles = [
  base,
  css`
    :host {
      display: block;
      margin-top: 24px;
    }
    .card {
      border: 1px solid var(--c-border);
      border-radius: 8px;
      padding: 12px 16px;
      margin-top: 10px;
    }
    h3 {
      margin: 0 0 4px;
      font-size: 1rem;
    }
    ul {
      margin: 8px 0 0;
      padding-left: 20px;
    }
    li + li {
      margin-top: 6px;
    }
    .off {
      color: var(--c-danger);
    }
    .ok {
      color: var(--c-ok);
    }
    .why {
      display: block;
    }
  `,
];
