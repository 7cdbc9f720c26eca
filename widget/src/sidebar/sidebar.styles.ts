import { css } from 'lit';
import { srOnly } from '../shared/styles.ts';

export const styles = [
  srOnly,
  css`
    :host {
      display: flex;
      flex-direction: column;
      gap: 0.5rem;
      min-height: 0;
      padding: 0.6rem;
      box-sizing: border-box;
      width: var(--heed-sidebar-width, 16rem);
      background: var(--heed-sidebar-background, #f6f8fa);
      border-inline-end: 1px solid var(--heed-border-color, #d0d7de);
    }
    :host([collapsed]) {
      width: var(--heed-sidebar-collapsed-width, 3.5rem);
      padding-inline: 0.3rem;
    }
    .top {
      display: flex;
      align-items: center;
      justify-content: space-between;
      gap: 0.25rem;
      min-height: 2rem;
    }
    h2 {
      margin: 0;
      font-size: 0.9em;
      font-weight: 600;
      color: var(--heed-muted-color, #57606a);
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
      gap: 0.4rem;
      border: 1px solid transparent;
      background: none;
      border-radius: var(--heed-radius-small, 8px);
      padding: 0.35rem;
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
      padding: 0.45rem 0.6rem;
    }
    ul {
      list-style: none;
      margin: 0;
      padding: 0;
      display: grid;
      gap: 0.25rem;
      overflow-y: auto;
      min-height: 0;
    }
  `,
];
