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

    /* a state's text replaces the date: bold, in the state's colour */
    .row:not([data-state='default']) .status {
      font-weight: 700;
    }
    /* live and input needed: a solid dot with a ping ring that grows and fades */
    .dot::after {
      content: '';
      position: absolute;
      inset: -2px;
      border-radius: 50%;
      background: inherit;
      opacity: 0;
    }

    .row[data-state='live'] {
      background: var(--heed-live-background, #ecfdf5);
      border-color: var(--heed-live-border, #a7f3d0);
      border-inline-start-color: var(--_live);
    }
    .row[data-state='live'] .icon,
    .row[data-state='live'] .status {
      color: var(--_live);
    }
    .row[data-state='live'] .dot {
      display: block;
      background: var(--heed-live-dot-color, #10b981);
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
      background: var(--heed-input-needed-dot-color, #f59e0b);
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

    /* waiting for a person: calm, no dot (nothing for the visitor to do, no badge counts it) */
    .row[data-state='waiting'] {
      background: var(--heed-waiting-background, #f6f2ff);
      border-color: var(--heed-waiting-border, #d8cdf6);
      border-inline-start-color: var(--_waiting);
    }
    .row[data-state='waiting'] .icon,
    .row[data-state='waiting'] .status {
      color: var(--_waiting);
    }

    :host([collapsed]) .row {
      grid-template-columns: auto;
      justify-content: center;
      padding: 6px;
    }

    /* only for visitors who do not ask for reduced motion: then the dot stays solid, without a ring */
    @media (prefers-reduced-motion: no-preference) {
      .row[data-state='live'] .dot::after,
      .row[data-state='input_needed'] .dot::after {
        animation: ping 1.4s cubic-bezier(0, 0, 0.2, 1) infinite;
      }
    }
    @keyframes ping {
      0% {
        transform: scale(1);
        opacity: 0.75;
      }
      75%,
      100% {
        transform: scale(2.2);
        opacity: 0;
      }
    }
  `,
];
