import { css } from 'lit';

export const styles = css`
  :host {
    --_gap: var(--heed-offset, 20px);
    position: fixed;
    z-index: var(--heed-z-index, 2147483000);
    inset-block-end: var(--_gap);
    inset-inline-end: var(--_gap);
    font-family: var(--heed-font-family, system-ui, -apple-system, 'Segoe UI', sans-serif);
  }
  :host([position='bottom-left']) {
    inset-inline-end: auto;
    inset-inline-start: var(--_gap);
  }
  .launcher {
    display: block;
  }
  /* Phones: the panel takes the screen; the launcher stays reachable above it only when closed. */
  @media (max-width: 639.98px) {
    :host([open]) .launcher {
      display: none;
    }
  }
  :host([mode='inline']) {
    position: static;
    display: block;
    height: 100%;
    min-height: var(--heed-inline-min-height, 480px);
  }
`;
