import { css } from 'lit';
import { base } from '../shared/styles.ts';

export const styles = [
  base,
  css`
    :host {
      display: block;
    }
    section {
      display: grid;
      gap: 10px;
      margin-top: 24px;
    }
    h2 {
      font-size: 1.1em;
      margin: 0;
    }
    p {
      margin: 0;
    }
    .channel {
      display: grid;
      gap: 2px;
    }
    .channel .hint {
      padding-inline-start: 26px;
    }
    label.inline {
      font-weight: 600;
    }
    button {
      justify-self: start;
    }
  `,
];
