import { css } from 'lit';

/**
 * The host of a pane that scrolls inside the panel (the inbox, the thread). Kept out of
 * styles.ts, which the first chunk loads: only the panel needs it.
 */
export const scrollPane = css`
  :host {
    display: block;
    overflow-y: auto;
    /* a scroll that reaches the end stops here, never moves the host page behind the chat */
    overscroll-behavior: contain;
    min-height: 0;
    padding: 12px;
    box-sizing: border-box;
  }
`;

/** A square button holding one icon (close, back, remove a file): the panel's and the attachment tray's. */
export const iconButton = css`
  .icon-button {
    display: grid;
    place-items: center;
    width: 32px;
    height: 32px;
    padding: 0;
    border: none;
    border-radius: var(--heed-radius-small, 8px);
    background: none;
    color: inherit;
    cursor: pointer;
  }
  .icon-button:hover {
    background: rgb(0 0 0 / 6%);
  }
  .icon-button:focus-visible {
    outline: 2px solid var(--heed-focus-color, #1a5fd0);
  }
`;
