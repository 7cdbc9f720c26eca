import { css } from 'lit';
import { srOnly } from '../shared/styles.ts';

export const styles = [
  srOnly,
  css`
    :host {
      display: block;
      min-width: 0;
    }
    header {
      display: flex;
      align-items: center;
      gap: 0.4rem;
      padding: 0.55rem 0.75rem;
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
      gap: 0.4rem;
      min-width: 0;
    }
    h2 {
      margin: 0;
      font-size: var(--heed-heading-font-size, 1rem);
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
    .dot[data-status='sign_in_needed'] {
      background: var(--heed-offline-color, #cf222e);
    }
    /* One fixed line below the title: changing status never moves the title. */
    .meta {
      display: flex;
      gap: 0.5rem;
      height: 1.2rem;
      line-height: 1.2rem;
      font-size: 0.78rem;
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
      padding-inline: 0.4rem;
      border-radius: 999px;
      background: var(--heed-provenance-background, #eef1f4);
    }
    :host([layout='narrow']) header {
      padding: 0.45rem 0.5rem;
    }
    ::slotted(button) {
      flex: none;
    }
    input {
      flex: 1;
      min-width: 0;
      margin: 0;
      padding: 0 0.3rem;
      font: inherit;
      font-size: var(--heed-heading-font-size, 1rem);
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
      width: 1.6rem;
      height: 1.6rem;
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
    .rename svg {
      width: 15px;
      height: 15px;
    }
  `,
];
