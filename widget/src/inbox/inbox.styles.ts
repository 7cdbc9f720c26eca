import { css } from 'lit';
import { stateColours } from '../shared/styles.ts';
import { scrollPane } from '../shared/pane-styles.ts';

export const styles = [
  stateColours,
  scrollPane,
  css`
    h3 {
      margin: 0 0 10px;
      font-size: 15px;
    }
    ul {
      list-style: none;
      margin: 0;
      padding: 0;
      display: grid;
      gap: 8px;
    }
    li {
      border: 1px solid var(--heed-border-color, #d0d7de);
      border-inline-start-width: 3px;
      border-radius: var(--heed-radius-small, 8px);
      padding: 8px 10px;
    }
    li[data-state='live'] {
      border-inline-start-color: var(--_live);
    }
    li[data-state='input_needed'] {
      border-inline-start-color: var(--_input);
    }
    li[data-state='unviewed'] {
      border-inline-start-color: var(--_unviewed);
    }
    li[data-state='waiting'] {
      border-inline-start-color: var(--_waiting);
    }
    li.failed {
      border-inline-start-color: var(--heed-failed-border, #cf222e);
    }
    .open {
      all: unset;
      display: block;
      cursor: pointer;
      font-weight: 600;
      overflow: hidden;
      text-overflow: ellipsis;
      white-space: nowrap;
      max-width: 100%;
    }
    .open:focus-visible,
    .retry:focus-visible,
    .continue:focus-visible,
    .start:focus-visible {
      outline: 2px solid var(--heed-focus-color, #1a5fd0);
    }
    .state {
      font-size: 12.5px;
      color: var(--heed-muted-color, #57606a);
    }
    .excerpt {
      margin: 3px 0 0;
      color: var(--heed-text-color, #1f2328);
      overflow-wrap: anywhere;
    }
    .retry,
    .continue,
    .start {
      margin-top: 6px;
      font: inherit;
      padding: 4px 11px;
      border-radius: 6px;
      border: 1px solid var(--heed-border-color, #d0d7de);
      background: var(--heed-background, #fff);
      cursor: pointer;
    }
    .empty {
      color: var(--heed-muted-color, #57606a);
    }
    .latest {
      margin-top: 18px;
    }
    .latest-title {
      margin: 0;
      font-weight: 600;
      overflow-wrap: anywhere;
    }
    .actions {
      display: flex;
      flex-wrap: wrap;
      gap: 8px;
    }
    /* the way back in: the one filled button of the home view */
    .continue {
      color: var(--heed-accent-contrast, var(--_site-accent-contrast, #fff));
      background: var(--heed-accent, var(--_site-accent, #1f2328));
      border-color: transparent;
    }
    .unavailable {
      color: var(--heed-text-color, #1f2328);
    }
  `,
];
