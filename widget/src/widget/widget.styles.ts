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
  .panel {
    position: fixed;
    inset-block-end: calc(var(--_gap) + var(--heed-launcher-size, 56px) + 12px);
    inset-inline-end: var(--_gap);
    width: var(--heed-panel-width, min(760px, calc(100vw - 2 * var(--_gap))));
    height: var(--heed-panel-height, min(640px, calc(100vh - 120px)));
    border-radius: var(--heed-radius, 12px);
    border: 1px solid var(--heed-border-color, #d0d7de);
    box-shadow: 0 12px 40px rgb(0 0 0 / 22%);
  }
  :host([position='bottom-left']) .panel {
    inset-inline-end: auto;
    inset-inline-start: var(--_gap);
  }
  .panel[hidden] {
    display: none;
  }
  /* Phones: the panel takes the screen; the launcher stays reachable above it only when closed. */
  @media (max-width: 639.98px) {
    .panel {
      inset: 0;
      width: auto;
      height: auto;
      border-radius: 0;
      border: none;
    }
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
  :host([mode='inline']) .panel {
    position: static;
    width: 100%;
    height: 100%;
    box-shadow: none;
  }
`;
