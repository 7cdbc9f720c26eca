import { css } from 'lit';
import { srOnly, stateColours } from '../shared/styles.ts';

export const styles = [
  srOnly,
  stateColours,
  css`
    :host {
      position: relative;
      display: inline-block;
    }
    button {
      display: grid;
      place-items: center;
      width: var(--heed-launcher-size, 56px);
      height: var(--heed-launcher-size, 56px);
      border-radius: 50%;
      border: none;
      cursor: pointer;
      color: var(--heed-accent-contrast, #fff);
      background: var(--heed-accent, #1f2328);
      box-shadow: 0 4px 14px rgb(0 0 0 / 25%);
      transition: transform 120ms ease;
    }
    button:hover {
      transform: scale(1.05);
    }
    button:focus-visible {
      outline: 3px solid var(--heed-focus-color, #1a5fd0);
      outline-offset: 2px;
    }
    button svg {
      width: 26px;
      height: 26px;
    }
    .badge {
      position: absolute;
      inset-block-start: -4px;
      inset-inline-end: -4px;
      min-width: 20px;
      height: 20px;
      padding-inline: 5px;
      box-sizing: border-box;
      border-radius: 10px;
      border: 2px solid var(--heed-background, #fff);
      font: 700 11px/16px system-ui, sans-serif;
      text-align: center;
      color: #fff;
      pointer-events: none;
    }
    .badge[data-state='live'] {
      background: var(--_live);
    }
    .badge[data-state='input_needed'] {
      background: var(--_input);
    }
    .badge[data-state='unviewed'] {
      background: var(--_unviewed);
    }
    @media (prefers-reduced-motion: reduce) {
      button {
        transition: none;
      }
      button:hover {
        transform: none;
      }
    }
  `,
];
