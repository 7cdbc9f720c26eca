import { css } from 'lit';
import { srOnly, stateColours } from '../shared/styles.ts';

export const styles = [
  srOnly,
  stateColours,
  css`
    :host {
      display: block;
    }
    .row {
      all: unset;
      box-sizing: border-box;
      display: grid;
      grid-template-columns: auto 1fr;
      align-items: center;
      gap: 10px;
      width: 100%;
      padding: 9px 11px;
      border-radius: var(--heed-radius-small, 8px);
      border: 1px solid transparent;
      border-inline-start-width: 3px;
      cursor: pointer;
      color: var(--heed-text-color, #1f2328);
      font: inherit;
    }
    .row:hover {
      background: var(--heed-row-hover-background, rgb(0 0 0 / 4%));
    }
    .row:focus-visible {
      outline: 2px solid var(--heed-focus-color, #1a5fd0);
      outline-offset: 1px;
    }
    .row[aria-current='true'] {
      box-shadow: inset 0 0 0 1px var(--heed-border-color, #d0d7de);
    }
    .icon {
      position: relative;
      display: grid;
      place-items: center;
      width: 28px;
      height: 28px;
      border-radius: 50%;
      color: var(--heed-muted-color, #57606a);
      background: var(--heed-icon-background, #f0f2f4);
    }
    .dot {
      position: absolute;
      inset-block-start: -1px;
      inset-inline-end: -1px;
      width: 9px;
      height: 9px;
      border-radius: 50%;
      border: 2px solid var(--heed-background, #fff);
      display: none;
    }
    .text {
      display: grid;
      min-width: 0;
    }
    .title {
      overflow: hidden;
      text-overflow: ellipsis;
      white-space: nowrap;
    }
    .status {
      font-size: 0.8em;
      color: var(--heed-muted-color, #57606a);
    }

    .row[data-state='live'] {
      background: var(--heed-live-background, #e9f6ee);
      border-color: var(--heed-live-border, #9fd3b0);
      border-inline-start-color: var(--_live);
    }
    .row[data-state='live'] .icon,
    .row[data-state='live'] .status {
      color: var(--_live);
    }
    .row[data-state='live'] .dot {
      display: block;
      background: var(--_live);
      animation: pulse 1.4s ease-in-out infinite;
    }

    .row[data-state='input_needed'] {
      background: var(--heed-input-needed-background, #fff4e5);
      border-color: var(--heed-input-needed-border, #f0c58a);
      border-inline-start-color: var(--_input);
    }
    .row[data-state='input_needed'] .icon,
    .row[data-state='input_needed'] .status {
      color: var(--_input);
    }
    .row[data-state='input_needed'] .dot {
      display: block;
      background: var(--_input);
    }

    .row[data-state='unviewed'] {
      background: var(--heed-unviewed-background, #edf3fe);
      border-color: var(--heed-unviewed-border, #b3cbf5);
      border-inline-start-color: var(--_unviewed);
    }
    .row[data-state='unviewed'] .title {
      font-weight: 700;
    }
    .row[data-state='unviewed'] .icon,
    .row[data-state='unviewed'] .status {
      color: var(--_unviewed);
    }
    .row[data-state='unviewed'] .dot {
      display: block;
      background: var(--_unviewed);
    }

    :host([collapsed]) .row {
      grid-template-columns: auto;
      justify-content: center;
      padding: 6px;
    }

    @keyframes pulse {
      50% {
        transform: scale(1.35);
        opacity: 0.6;
      }
    }
    @media (prefers-reduced-motion: reduce) {
      .row[data-state='live'] .dot {
        animation: none;
      }
    }
  `,
];
