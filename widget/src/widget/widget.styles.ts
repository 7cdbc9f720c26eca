import { css } from 'lit';
import { pageHostReset } from '../shared/host-reset.ts';

export const styles = [
  ...pageHostReset,
  css`
    :host {
      --_gap: var(--heed-offset, 20px);
      position: fixed;
      z-index: var(--heed-z-index, 2147483000);
      bottom: var(--_gap);
      inset-inline-end: var(--_gap);
    }
    :host([position='bottom-left']) {
      inset-inline: var(--_gap) auto;
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
  `,
];
