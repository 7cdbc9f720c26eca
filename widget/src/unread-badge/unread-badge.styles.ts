import { css } from 'lit';
import { srOnly, stateColours } from '../shared/styles.ts';

export const styles = [
  srOnly,
  stateColours,
  css`
    :host {
      display: inline-block;
      vertical-align: middle;
    }
    :host([idle]) {
      display: none;
    }
    span[part='badge'] {
      display: inline-block;
      min-width: 1.25em;
      padding: 0 0.4em;
      box-sizing: border-box;
      border-radius: 999px;
      font: 700 0.75rem/1.5 system-ui, sans-serif;
      text-align: center;
      color: #fff;
    }
    [data-state='live'] {
      background: var(--_live);
    }
    [data-state='input_needed'] {
      background: var(--_input);
    }
    [data-state='unviewed'] {
      background: var(--_unviewed);
    }
  `,
];
