import { css } from 'lit';
import { base, siteSection } from '../shared/styles.ts';

export const styles = [
  base,
  siteSection,
  css`
    tr[data-revoked='true'] td {
      color: var(--c-muted);
    }
    .create {
      display: flex;
      flex-wrap: wrap;
      gap: 8px;
      align-items: start;
    }
    .create .field {
      display: grid;
      gap: 4px;
      flex: 1 1 240px;
    }
    .create .field label {
      font-weight: 600;
    }
    .create button {
      margin-top: 26px;
    }
    .secret {
      border: 1px solid #f0c58a;
      background: #fff4e5;
      border-radius: 10px;
      padding: 10px;
      margin-bottom: 12px;
    }
    .secret p {
      margin: 0 0 6px;
    }
    .secret pre {
      margin-bottom: 8px;
    }
  `,
];
