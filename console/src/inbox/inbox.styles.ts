import { css } from 'lit';
import { base } from '../shared/styles.ts';

/**
 * Three panes from 1,100 px (list | conversation | visitor), each scrolling on its own within
 * the window's height; below that, one pane at a time in the page's own flow.
 */
export const styles = [
  base,
  css`
    :host {
      display: block;
      min-width: 0;
    }
    @media (min-width: 1100px) {
      /* the panes use the whole main area: the app's padding would only cost rows */
      :host {
        margin: -12px -20px -20px;
        padding: 8px 12px 0;
      }
    }
    .panes {
      display: grid;
      grid-template-columns: minmax(0, 1fr);
    }
    .panes[data-open='conversation'] .list-pane,
    .panes[data-open='list'] .conversation-pane {
      display: none;
    }
    .conversation-pane,
    .visitor-pane {
      min-width: 0;
    }
    .conversation-pane:focus {
      outline: none;
    }
    .back {
      display: inline-block;
      margin-bottom: 8px;
    }
    .visitor-pane {
      margin-top: 16px;
      border-top: 1px solid var(--c-border);
      padding-top: 12px;
    }
    @media (min-width: 1100px) {
      .panes,
      .panes[data-open] {
        grid-template-columns: minmax(280px, 340px) minmax(0, 1fr) minmax(220px, 280px);
        gap: 0;
        /* the window less the console's header and the main area's padding (see :host below) */
        height: calc(100dvh - 60px);
      }
      .panes[data-open] .list-pane,
      .panes[data-open] .conversation-pane {
        display: block;
      }
      .list-pane,
      .conversation-pane,
      .visitor-pane {
        overflow-y: auto;
        overscroll-behavior: contain;
        min-height: 0;
      }
      .list-pane {
        padding-inline-end: 12px;
        border-inline-end: 1px solid var(--c-border);
      }
      .conversation-pane {
        padding-inline: 16px;
      }
      .visitor-pane {
        margin-top: 0;
        border-top: 0;
        padding: 0 0 0 12px;
        border-inline-start: 1px solid var(--c-border);
      }
      .back {
        display: none;
      }
      .choose {
        margin-top: 40px;
        text-align: center;
      }
    }
  `,
];
