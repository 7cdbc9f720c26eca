import { css } from 'lit';
import { srOnly } from '../shared/styles.ts';

export const styles = [
  srOnly,
  css`
    :host {
      display: block;
      min-width: 0;
    }
    .bar {
      anchor-name: --heed-bar;
      display: flex;
      align-items: center;
      gap: 6px;
      padding: 9px 12px;
      border-block-end: 1px solid var(--heed-border-color, #d0d7de);
      background: var(--heed-heading-background, var(--heed-background, #fff));
    }
    .main {
      flex: 1;
      min-width: 0;
    }
    /* The dot sits right after the (truncated) title and never wraps onto its own line. */
    .title-line {
      display: flex;
      align-items: center;
      flex-wrap: nowrap;
      gap: 6px;
      min-width: 0;
    }
    h2 {
      margin: 0;
      font-size: var(--heed-heading-font-size, 16px);
      font-weight: 600;
      line-height: 1.4;
      min-width: 0;
      overflow: hidden;
      text-overflow: ellipsis;
      white-space: nowrap;
    }
    .dot {
      flex: none;
      width: 8px;
      height: 8px;
      border-radius: 50%;
      background: var(--heed-muted-color, #8c959f);
    }
    .dot[data-status='connected'] {
      background: var(--heed-connected-color, #1a7f37);
    }
    .dot[data-status='reconnecting'],
    .dot[data-status='connecting'] {
      background: var(--heed-reconnecting-color, #bf8700);
    }
    .dot[data-status='offline'],
    .dot[data-status='sign_in_needed'],
    .dot[data-status='unavailable'] {
      background: var(--heed-offline-color, #cf222e);
    }
    /* One fixed line below the title: changing status never moves the title. */
    .meta {
      display: flex;
      gap: 8px;
      height: 19px;
      line-height: 19px;
      font-size: 12.5px;
      color: var(--heed-muted-color, #57606a);
      white-space: nowrap;
      overflow: hidden;
    }
    .status {
      flex: none;
      min-width: 7.5em;
    }
    .provenance {
      overflow: hidden;
      text-overflow: ellipsis;
      padding-inline: 6px;
      border-radius: 999px;
      background: var(--heed-provenance-background, #eef1f4);
    }
    :host([layout='narrow']) .bar {
      padding: 7px 8px;
    }
    ::slotted(button) {
      flex: none;
    }
    input {
      flex: 1;
      min-width: 0;
      margin: 0;
      padding: 0 5px;
      font: inherit;
      font-size: var(--heed-heading-font-size, 16px);
      font-weight: 600;
      line-height: 1.4;
      color: inherit;
      border: 1px solid var(--heed-border-color, #d0d7de);
      border-radius: 4px;
      background: var(--heed-input-background, #fff);
    }
    input[aria-invalid='true'] {
      border-color: var(--heed-offline-color, #cf222e);
    }
    .rename {
      flex: none;
      display: grid;
      place-items: center;
      width: 26px;
      height: 26px;
      padding: 0;
      border: none;
      border-radius: 6px;
      background: none;
      color: var(--heed-muted-color, #57606a);
      cursor: pointer;
    }
    .rename:hover {
      background: rgb(0 0 0 / 6%);
    }
    .rename:focus-visible,
    input:focus-visible {
      outline: 2px solid var(--heed-focus-color, #1a5fd0);
    }
    .menu-wrap {
      position: relative;
      flex: none;
    }
    .menu-button {
      display: grid;
      place-items: center;
      width: 30px;
      height: 30px;
      padding: 0;
      border: none;
      border-radius: 6px;
      background: none;
      color: var(--heed-muted-color, #57606a);
      cursor: pointer;
    }
    .menu-button:hover,
    .menu-button[aria-expanded='true'] {
      background: rgb(0 0 0 / 6%);
    }
    .popup {
      position: absolute;
      inset-block-start: calc(100% + 4px);
      inset-inline-end: 0;
      z-index: 3;
      width: 15rem;
      padding: 6px;
      border: 1px solid var(--heed-border-color, #d0d7de);
      border-radius: var(--heed-radius-small, 8px);
      background: var(--heed-background, #fff);
      box-shadow: 0 8px 24px rgb(0 0 0 / 16%);
    }
    .item {
      display: flex;
      flex-wrap: wrap;
      align-items: center;
      gap: 6px;
      width: 100%;
      padding: 6px 8px;
      border: none;
      border-radius: 6px;
      background: none;
      color: inherit;
      font: inherit;
      text-align: start;
      cursor: pointer;
    }
    .item:hover {
      background: rgb(0 0 0 / 6%);
    }
    .check {
      display: inline-grid;
      place-items: center;
      width: 1.1em;
      height: 1.1em;
      border: 1px solid currentColor;
      border-radius: 3px;
      font-size: 0.85em;
    }
    /* the line under "Private", in its item */
    .hint {
      flex-basis: 100%;
      font-size: 12px;
      line-height: 1.4;
      color: var(--heed-muted-color, #57606a);
      white-space: normal;
    }
    .delete {
      margin-block-start: 4px;
      border-block-start: 1px solid var(--heed-border-color, #d0d7de);
      border-radius: 0 0 6px 6px;
      color: var(--heed-error-color, #b42318);
    }
    /* the confirmation before deleting: in the top layer, under the heading where anchors work (else centred) */
    dialog {
      max-width: min(24rem, calc(100vw - 32px));
      padding: 16px;
      border: 1px solid var(--heed-border-color, #d0d7de);
      border-radius: var(--heed-radius-small, 8px);
      color: var(--heed-text-color, #1f2328);
      background: var(--heed-background, #fff);
      box-shadow: 0 8px 24px rgb(0 0 0 / 16%);
    }
    @supports (position-anchor: --heed-bar) {
      dialog {
        position-anchor: --heed-bar;
        inset: anchor(bottom) anchor(right) auto anchor(left);
        max-width: none;
        margin: 8px;
      }
    }
    dialog h2 {
      white-space: normal;
    }
    dialog p {
      margin: 4px 0 16px;
      line-height: 1.45;
    }
    form {
      display: flex;
      justify-content: flex-end;
      gap: 8px;
    }
    form button {
      padding: 6px 14px;
      font: inherit;
      color: inherit;
      border: 1px solid var(--heed-border-color, #d0d7de);
      border-radius: var(--heed-radius-small, 8px);
      background: none;
      cursor: pointer;
    }
    form .danger {
      color: #fff;
      border-color: var(--heed-error-color, #b42318);
      background: var(--heed-error-color, #b42318);
    }
    .menu-button:focus-visible,
    .item:focus-visible,
    form button:focus-visible {
      outline: 2px solid var(--heed-focus-color, #1a5fd0);
      outline-offset: 1px;
    }
    .rename svg {
      width: 15px;
      height: 15px;
    }
  `,
];
