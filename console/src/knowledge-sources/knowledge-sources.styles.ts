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
    form.stacked {
      display: grid;
      align-items: stretch;
      max-width: 640px;
    }
    .buttons {
      display: flex;
      gap: 8px;
    }
    .items > li {
      display: flex;
      flex-wrap: wrap;
      align-items: baseline;
      gap: 4px 12px;
      padding: 6px 0;
      border-bottom: 1px solid var(--c-border, #ddd);
    }
    .items .answer {
      flex-basis: 100%;
      margin: 0;
      white-space: pre-line;
    }
    h3 {
      margin: 20px 0 6px;
      font-size: 1.05em;
    }
    .page-errors {
      margin: 4px 0 0;
      padding-inline-start: 18px;
      color: var(--c-muted);
      font-size: 0.9em;
    }
  `,
];
