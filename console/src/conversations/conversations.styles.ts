import { css } from 'lit';
import { base } from '../shared/styles.ts';

/**
 * Dense, for the inbox's list pane: one line of search, one of site and export, one scrolling
 * strip of filters, and rows of about 60 px (the widget's row, tightened, and one line of
 * facts), so ten or more fit beside a conversation on an 800 px high screen.
 */
export const styles = [
  base,
  css`
    :host {
      display: block;
    }
    .head {
      display: flex;
      align-items: baseline;
      gap: 10px;
      flex-wrap: wrap;
      margin-bottom: 8px;
    }
    .head h1 {
      font-size: 1.2rem;
      margin: 0;
    }
    .connection {
      font-size: 0.85em;
      color: var(--c-muted);
    }
    .connection[data-state='connected'] {
      color: var(--c-ok);
    }
    .search {
      display: flex;
      gap: 6px;
      margin-bottom: 6px;
    }
    .search input {
      flex: 1;
      min-width: 0;
    }
    .toolbar {
      display: flex;
      flex-wrap: wrap;
      gap: 6px 10px;
      align-items: center;
      justify-content: space-between;
      margin-bottom: 6px;
    }
    .site {
      display: flex;
      align-items: center;
      gap: 6px;
      font-weight: 600;
      min-width: 0;
    }
    .site select {
      min-width: 0;
      max-width: 190px;
    }
    /* one line that scrolls sideways inside the pane, never the page */
    .filters {
      display: flex;
      gap: 4px;
      overflow-x: auto;
      padding: 2px 2px 6px;
      margin-bottom: 4px;
      scrollbar-width: thin;
    }
    .filters button {
      flex: none;
      padding: 3px 10px;
      font-size: 0.85em;
      border-radius: 999px;
    }
    .filters button[aria-pressed='true'] {
      background: var(--c-text);
      border-color: var(--c-text);
      color: #fff;
    }
    .list {
      list-style: none;
      margin: 0;
      padding: 0;
      display: grid;
      /* a row no wider than the list: a long title or excerpt is cut, it does not widen the page */
      grid-template-columns: minmax(0, 1fr);
    }
    .list li {
      border-bottom: 1px solid var(--c-border);
      background: #fff;
    }
    .list li[data-selected='true'] {
      background: #eef4ff;
    }
    heed-conversation-row::part(row) {
      padding: 5px 8px 1px;
    }
    /* the state or time moves to the facts line below: one line less per row */
    heed-conversation-row::part(status) {
      display: none;
    }
    .meta {
      margin: -3px 8px 5px 46px;
      font-size: 0.8em;
      color: var(--c-muted);
      white-space: nowrap;
      overflow: hidden;
      text-overflow: ellipsis;
    }
    .meta > span:not(:first-child)::before {
      content: ' · ';
    }
    .queue {
      margin-bottom: 10px;
      padding: 6px;
      border: 1px solid #c9b8f0;
      background: #f7f3ff;
      border-radius: 10px;
    }
    .queue h2 {
      font-size: 0.95rem;
      margin: 2px 4px 6px;
    }
    .waiting {
      color: #5b2bb5;
      font-weight: 700;
    }
    .held,
    .assignee {
      color: var(--c-ok);
      font-weight: 700;
    }
    .state {
      font-weight: 700;
    }
    .state[data-state='live'] {
      color: #047857;
    }
    .state[data-state='input_needed'] {
      color: #a04f00;
    }
    .state[data-state='unviewed'] {
      color: #1a5fd0;
    }
    .state[data-state='waiting'] {
      color: #6639ba;
    }
    .failed {
      color: var(--c-danger);
      font-weight: 700;
    }
    .more {
      margin-top: 10px;
    }
    .files svg {
      vertical-align: -1px;
      margin-inline-end: 1px;
    }
  `,
];
