import { css } from 'lit';
import { base } from '../shared/styles.ts';

export const styles = [
  base,
  css`
    :host {
      display: block;
      margin-top: 20px;
    }
    section {
      background: #fff;
      border: 1px solid var(--c-border);
      border-radius: 12px;
      padding: 12px;
    }
    .table-wrap {
      margin-bottom: 14px;
    }
    caption {
      text-align: start;
      font-weight: 700;
      padding-bottom: 6px;
    }
    th[scope='row'] {
      white-space: nowrap;
      color: inherit;
      font-size: 1em;
      font-weight: 600;
    }
    td {
      white-space: nowrap;
    }
    tfoot th,
    tfoot td {
      border-top: 2px solid var(--c-border);
      font-weight: 700;
    }
    .ratings {
      display: flex;
      flex-wrap: wrap;
      gap: 10px;
      margin: 0 0 12px;
    }
    .ratings div {
      border: 1px solid var(--c-border);
      border-radius: 10px;
      padding: 8px 12px;
      min-width: 120px;
    }
    dt {
      color: var(--c-muted);
      font-size: 0.85em;
    }
    dd {
      margin: 0;
      font-size: 1.2em;
      font-weight: 700;
    }
    .comments {
      list-style: none;
      margin: 0;
      padding: 0;
      display: grid;
      gap: 8px;
    }
    .comments li {
      border-bottom: 1px solid var(--c-border);
      padding-bottom: 8px;
    }
    .thumb {
      font-size: 0.9em;
      font-weight: 600;
    }
    .words {
      margin: 4px 0;
      white-space: pre-wrap;
      overflow-wrap: anywhere;
    }
    .meta {
      margin: 0;
      color: var(--c-muted);
      font-size: 0.85em;
    }
  `,
];
