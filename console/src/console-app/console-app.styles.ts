import { css } from 'lit';
import { base } from '../shared/styles.ts';

/** Two columns (navigation beside the view) from 800 px; one column with a scrolling tab strip below it. */
export const styles = [
  base,
  css`
    :host {
      display: block;
      min-height: 100vh;
      background: var(--c-surface);
    }
    .loading {
      padding: 24px;
    }
    .layout {
      display: grid;
      grid-template-columns: 200px minmax(0, 1fr);
      grid-template-rows: auto 1fr;
      grid-template-areas: 'header header' 'nav main';
      min-height: 100vh;
    }
    header {
      grid-area: header;
      display: flex;
      align-items: center;
      gap: 12px;
      padding: 8px 16px;
      background: #fff;
      border-bottom: 1px solid var(--c-border);
    }
    .brand {
      font-weight: 700;
      margin-inline-end: auto;
    }
    .who {
      color: var(--c-muted);
      overflow: hidden;
      text-overflow: ellipsis;
      white-space: nowrap;
      min-width: 0;
    }
    .role {
      margin-inline-start: 6px;
      padding: 1px 6px;
      border-radius: 999px;
      background: var(--c-surface);
      border: 1px solid var(--c-border);
      font-size: 0.8em;
    }
    nav {
      grid-area: nav;
      padding: 12px 8px;
      border-inline-end: 1px solid var(--c-border);
      background: #fff;
    }
    nav ul {
      list-style: none;
      margin: 0;
      padding: 0;
      display: grid;
      gap: 2px;
    }
    nav a {
      display: block;
      padding: 8px 12px;
      border-radius: 8px;
      color: var(--c-text);
      text-decoration: none;
    }
    nav a:hover {
      background: var(--c-surface);
    }
    nav a[aria-current='page'] {
      background: #e7efff;
      color: var(--c-accent);
      font-weight: 600;
    }
    main {
      grid-area: main;
      padding: 20px;
      min-width: 0;
    }
    main:focus {
      outline: none;
    }
    @media (max-width: 799px) {
      .layout {
        grid-template-columns: minmax(0, 1fr);
        grid-template-rows: auto auto 1fr;
        grid-template-areas: 'header' 'nav' 'main';
      }
      header {
        padding: 8px 12px;
      }
      nav {
        padding: 4px 8px;
        border-inline-end: 0;
        border-bottom: 1px solid var(--c-border);
        overflow-x: auto;
      }
      nav ul {
        display: flex;
      }
      nav a {
        white-space: nowrap;
      }
      main {
        padding: 12px;
      }
    }
  `,
];
