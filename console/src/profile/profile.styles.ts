import { css } from 'lit';
import { base } from '../shared/styles.ts';

export const styles = [
  base,
  css`
    :host {
      display: block;
      max-width: 520px;
    }
    form,
    section {
      display: grid;
      gap: 10px;
      margin-top: 24px;
    }
    h2 {
      font-size: 1.1em;
      margin: 0;
    }
    .field {
      display: grid;
      gap: 4px;
    }
    .field label {
      font-weight: 600;
    }
    button {
      justify-self: start;
    }
  `,
];
