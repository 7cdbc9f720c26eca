import { css } from 'lit';
import { base } from '../shared/styles.ts';

export const styles = [
  base,
  css`
    :host {
      display: block;
      /* a side pane from 320 px wide: nothing may push it wider */
      min-width: 0;
      max-width: 100%;
    }
    h3 {
      margin: 16px 0 6px;
    }
    dl {
      margin: 0;
      display: grid;
      grid-template-columns: minmax(0, 1fr);
    }
    dt {
      font-weight: 600;
      font-size: 0.875rem;
      color: var(--c-muted);
      margin-top: 8px;
    }
    dd {
      margin: 0;
      /* addresses, user agents and ids have no spaces: break them anywhere rather than overflow */
      overflow-wrap: anywhere;
      min-width: 0;
    }
    .url {
      display: block;
      font-size: 0.875rem;
      color: var(--c-muted);
    }
    ul {
      list-style: none;
      margin: 0;
      padding: 0;
    }
    li {
      padding: 6px 0;
      border-top: 1px solid var(--c-border);
      overflow-wrap: anywhere;
    }
    li:first-child {
      border-top: 0;
    }
    .meta {
      display: block;
      font-size: 0.875rem;
    }
    #data-note {
      margin: 0 0 8px;
      font-size: 0.875rem;
    }
    .data-actions {
      display: flex;
      flex-wrap: wrap;
      align-items: flex-start;
      gap: 8px;
    }
  `,
];
