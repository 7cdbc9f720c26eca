import { css } from 'lit';

/** Shared pieces of CSS: visually hidden text and the attention colours. */
export const srOnly = css`
  .sr-only {
    position: absolute;
    width: 1px;
    height: 1px;
    margin: -1px;
    padding: 0;
    overflow: hidden;
    clip: rect(0 0 0 0);
    white-space: nowrap;
    border: 0;
  }
`;

/**
 * Colours per attention state, overridable on any Heed element's host. Chosen for at
 * least 4.5:1 contrast of white text on the badge colours.
 */
export const stateColours = css`
  :host {
    --_live: var(--heed-live-color, #137333);
    --_input: var(--heed-input-needed-color, #a04f00);
    --_unviewed: var(--heed-unviewed-color, #1a5fd0);
  }
`;
