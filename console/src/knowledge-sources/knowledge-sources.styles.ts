import { css } from 'lit';
import { base, siteSection } from '../shared/styles.ts';

export const styles = [
  base,
  siteSection,
  css`
    form {
      display: flex;
      flex-wrap: wrap;
      align-items: end;
      gap: 8px;
      margin-top: 12px;
    }
    .field {
      display: grid;
      gap: 4px;
      flex: 1 1 280px;
    }
    .field label {
      font-weight: 600;
    }
    .url {
      max-width: 360px;
      overflow-wrap: anywhere;
    }
    .page-errors {
      margin: 4px 0 0;
      padding-inline-start: 18px;
      color: var(--c-muted);
      font-size: 0.9em;
    }
  `,
];
