import { css } from 'lit';
import { base } from '../shared/styles.ts';

export const styles = [
  base,
  css`
    dialog {
      width: min(460px, calc(100vw - 24px));
      border: 1px solid var(--c-border);
      border-radius: 12px;
      padding: 20px;
    }
    dialog::backdrop {
      background: rgb(0 0 0 / 35%);
    }
    form {
      display: grid;
      gap: 14px;
    }
    p {
      margin: 0;
    }
  `,
];
