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
