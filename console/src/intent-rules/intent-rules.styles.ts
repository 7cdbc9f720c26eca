import { css } from 'lit';
import { base, siteSection } from '../shared/styles.ts';

export const styles = [
  base,
  siteSection,
  css`
    .says {
      max-width: 320px;
      overflow-wrap: anywhere;
    }
    .kind {
      color: var(--c-muted);
    }
    form {
      display: grid;
      gap: 12px;
      margin-top: 12px;
    }
    .field {
      display: grid;
      gap: 4px;
    }
    .field label {
      font-weight: 600;
    }
    fieldset {
      border: 1px solid var(--c-border);
      border-radius: 8px;
      padding: 8px 12px;
      display: grid;
      gap: 6px;
    }
    legend {
      font-weight: 600;
      padding: 0 4px;
    }
  `,
];
