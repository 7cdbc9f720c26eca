import { css } from 'lit';
import { base } from '../shared/styles.ts';

export const styles = [
  base,
  css`
    :host {
      display: block;
      max-width: 980px;
    }
    .head {
      display: flex;
      align-items: baseline;
      gap: 12px;
      flex-wrap: wrap;
    }
    .connection {
      font-size: 0.85em;
      color: var(--c-muted);
    }
    .connection[data-state='connected'] {
      color: var(--c-ok);
    }
    .toolbar {
      display: flex;
      flex-wrap: wrap;
      gap: 12px;
      align-items: end;
      margin-bottom: 12px;
    }
    .site {
      min-width: 180px;
    }
    .search {
      display: flex;
      gap: 8px;
      align-items: end;
      flex: 1 1 260px;
    }
    .search label {
      flex: 1;
    }
    .filters {
      display: flex;
      flex-wrap: wrap;
      gap: 6px;
      margin-bottom: 12px;
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
      gap: 6px;
    }
    .list li {
      background: #fff;
      border: 1px solid var(--c-border);
      border-radius: 10px;
      padding: 4px;
    }
    .meta {
      display: flex;
      flex-wrap: wrap;
      gap: 4px 12px;
      margin: 2px 10px 6px 50px;
      font-size: 0.85em;
      color: var(--c-muted);
    }
    .excerpt {
      flex-basis: 100%;
      overflow: hidden;
      text-overflow: ellipsis;
      white-space: nowrap;
    }
    .queue {
      margin-bottom: 16px;
      padding: 10px;
      border: 1px solid #c9b8f0;
      background: #f7f3ff;
      border-radius: 12px;
    }
    .queue h2 {
      font-size: 1rem;
      margin: 2px 4px 10px;
    }
    .waiting {
      color: #5b2bb5;
      font-weight: 700;
    }
    .held {
      color: var(--c-ok);
      font-weight: 700;
    }
    .failed {
      color: var(--c-danger);
      font-weight: 700;
    }
    .more {
      margin-top: 12px;
    }
    @media (max-width: 480px) {
      .meta {
        margin-inline-start: 12px;
      }
    }
  `,
];
