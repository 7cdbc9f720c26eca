import { css } from 'lit';
import { base } from '../shared/styles.ts';

export const styles = [
  base,
  css`
    dialog {
      border: 1px solid var(--c-border);
      border-radius: 12px;
      padding: 20px;
      max-width: min(460px, calc(100vw - 32px));
    }
    dialog::backdrop {
      background: rgb(0 0 0 / 0.35);
    }
    p {
      margin: 0 0 16px;
    }
  `,
];
