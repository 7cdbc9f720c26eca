import { css } from 'lit';
import { srOnly } from '../shared/styles.ts';

export const styles = [
  srOnly,
  css`
    :host {
      display: flex;
      flex-direction: column;
      gap: 8px;
      min-height: 0;
      padding: 10px;
      box-sizing: border-box;
      width: var(--heed-sidebar-width, 256px);
      background: var(--heed-sidebar-background, #f6f8fa);
      border-inline-end: 1px solid var(--heed-border-color, #d0d7de);
    }
    :host([collapsed]) {
      width: var(--heed-sidebar-collapsed-width, 56px);
      padding-inline: 5px;
    }
    .top {
      display: flex;
      align-items: center;
      justify-content: space-between;
      gap: 4px;
      min-height: 32px;
    }
    h2 {
      margin: 0;
      font-size: 0.9em;
      font-weight: 600;
      color: var(--heed-muted-color, #57606a);
    }
    /* the chevron points where the sidebar folds to: its start edge, the right one in RTL */
    .toggle svg:dir(rtl) {
      transform: scaleX(-1);
    }
    :host([collapsed]) .top {
      justify-content: center;
    }
    button {
      font: inherit;
      color: inherit;
      display: inline-flex;
      align-items: center;
      justify-content: center;
      gap: 6px;
      border: 1px solid transparent;
      background: none;
      border-radius: var(--heed-radius-small, 8px);
      padding: 6px;
      cursor: pointer;
    }
    button:hover {
      background: rgb(0 0 0 / 5%);
    }
    button:focus-visible {
      outline: 2px solid var(--heed-focus-color, #1a5fd0);
    }
    .new {
      border-color: var(--heed-border-color, #d0d7de);
      background: var(--heed-background, #fff);
      padding: 7px 10px;
    }
    ul {
      list-style: none;
      margin: 0;
      padding: 0;
      display: grid;
      gap: 4px;
      overflow-y: auto;
      min-height: 0;
    }
  `,
];
