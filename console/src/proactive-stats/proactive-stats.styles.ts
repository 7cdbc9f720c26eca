import { css } from 'lit';
import { base, siteSection } from '../shared/styles.ts';

export const styles = [
  base,
  siteSection,
  css`
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
