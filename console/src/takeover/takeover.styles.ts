import { css } from 'lit';
import { base } from '../shared/styles.ts';

export const styles = [
  base,
  css`
    :host {
      display: block;
      background: #fff;
      border: 1px solid var(--c-border);
      border-radius: 12px;
      padding: 12px 16px;
    }
    .bar {
      display: flex;
      flex-wrap: wrap;
      gap: 8px 16px;
      align-items: center;
      justify-content: space-between;
    }
    .bar p {
      margin: 0;
    }
    .held {
      font-weight: 700;
      color: var(--c-ok);
    }
    .compose {
      display: grid;
      /* no wider than the pane: a long file name is cut, it does not widen the box */
      grid-template-columns: minmax(0, 1fr);
      gap: 6px;
      margin-top: 12px;
    }
    .compose > label {
      font-weight: 600;
    }
    .compose[data-mode='note'] textarea {
      background: #fff8e1;
    }
    /* files dragged over: the whole box takes them */
    .compose[data-dragging] {
      outline: 2px dashed var(--c-accent);
      outline-offset: 4px;
      border-radius: 8px;
    }
    .modes {
      display: flex;
      flex-wrap: wrap;
      gap: 4px 16px;
    }
    .box {
      position: relative;
    }
    .box textarea {
      width: 100%;
    }
    /* above the box, so it never runs off the bottom of the pane the box is pinned to */
    .canned {
      position: absolute;
      bottom: 100%;
      inset-inline: 0;
      margin: 0 0 4px;
      padding: 4px;
      list-style: none;
      background: #fff;
      border: 1px solid var(--c-border);
      border-radius: 8px;
      box-shadow: 0 4px 16px rgb(0 0 0 / 12%);
      max-height: 240px;
      overflow-y: auto;
      z-index: 2;
    }
    .canned li {
      padding: 6px 8px;
      border-radius: 6px;
      cursor: pointer;
      overflow: hidden;
      text-overflow: ellipsis;
      white-space: nowrap;
    }
    .canned li[aria-selected='true'] {
      background: #e7efff;
      outline: 2px solid var(--c-focus);
      outline-offset: -2px;
    }
    .error {
      margin: 6px 0 0;
    }
  `,
];
