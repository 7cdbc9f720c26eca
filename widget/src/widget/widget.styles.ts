import { css } from 'lit';
import { pageHostReset } from '../shared/host-reset.ts';
import { srOnly } from '../shared/styles.ts';

export const styles = [
  ...pageHostReset,
  srOnly,
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
    .preview {
      position: absolute;
      inset-block-end: calc(var(--heed-launcher-size, 56px) + 12px);
      inset-inline-end: 0;
      display: flex;
      align-items: flex-start;
      gap: 4px;
      width: max-content;
      max-width: min(280px, calc(100vw - 2 * var(--_gap)));
      padding: 4px;
      border: 1px solid var(--heed-border-color, #d0d7de);
      border-radius: var(--heed-radius, 12px);
      background: var(--heed-background, #fff);
      color: var(--heed-text-color, #1f2328);
      box-shadow: 0 6px 20px rgb(0 0 0 / 18%);
      font: 14px / 1.4 var(--heed-font-family, system-ui, sans-serif);
    }
    :host([position='bottom-left']) .preview {
      inset-inline: 0 auto;
    }
    .preview button {
      border: none;
      background: none;
      color: inherit;
      font: inherit;
      cursor: pointer;
      border-radius: var(--heed-radius-small, 8px);
    }
    .preview button:focus-visible {
      outline: 2px solid var(--heed-focus-color, #1a5fd0);
    }
    .preview-text {
      padding: 6px 8px;
      text-align: start;
      overflow: hidden;
      display: -webkit-box;
      -webkit-line-clamp: 2;
      -webkit-box-orient: vertical;
    }
    .preview-dismiss {
      flex: none;
      display: grid;
      place-items: center;
      width: 28px;
      height: 28px;
      padding: 0;
    }
    :host([mode='inline']) {
      position: static;
      display: block;
      height: 100%;
      min-height: var(--heed-inline-min-height, 480px);
    }
  `,
];
