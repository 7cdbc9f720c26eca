import { css } from 'lit';
import { base } from '../shared/styles.ts';

export const styles = [
  base,
  css`
    :host {
      display: grid;
      place-items: center;
      min-height: 100vh;
      padding: 16px;
      background: var(--c-surface);
    }
    main {
      width: min(380px, 100%);
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
