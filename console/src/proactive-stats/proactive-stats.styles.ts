import { css } from 'lit';
import { base } from '../shared/styles.ts';

export const styles = [
  base,
  css`
    :host {
      display: block;
      margin: 24px 0;
    }
    .tables {
      display: grid;
      grid-template-columns: repeat(auto-fit, minmax(240px, 1fr));
      gap: 12px;
    }
    .card p {
      margin: 0;
    }
    td:last-child,
    th:last-child {
      text-align: end;
    }
  `,
];
