import { css } from 'lit';
import { srOnly } from '../shared/styles.ts';

export const styles = [
  srOnly,
  css`
    :host {
      display: block;
      /* the visitor's bubble keeps line breaks (pre-wrap): not in here */
      white-space: normal;
    }
    ul {
      display: flex;
      flex-wrap: wrap;
      gap: 6px;
      margin: 6px 0 0;
      padding: 0;
      list-style: none;
    }
    .thumb {
      display: block;
      padding: 0;
      border: 1px solid var(--heed-border-color, #d0d7de);
      border-radius: var(--heed-radius-small, 8px);
      overflow: hidden;
      background: var(--heed-background, #fff);
      cursor: zoom-in;
    }
    .thumb img {
      display: block;
      max-width: 100%;
      height: auto;
      object-fit: contain;
    }
    .file {
      display: flex;
      align-items: center;
      gap: 8px;
      max-width: 260px;
      padding: 6px 10px 6px 6px;
      border: 1px solid currentColor;
      border-radius: var(--heed-radius-small, 8px);
      color: inherit;
      text-decoration: none;
    }
    a.file:hover .name {
      text-decoration: underline;
    }
    .icon {
      flex: none;
      display: grid;
      place-items: center;
      width: 32px;
      height: 32px;
    }
    .about {
      display: flex;
      flex-direction: column;
      min-width: 0;
    }
    .name {
      overflow: hidden;
      text-overflow: ellipsis;
      white-space: nowrap;
      font-weight: 600;
    }
    .meta {
      font-size: 12px;
      opacity: 0.85;
    }
    .thumb:focus-visible,
    .file:focus-visible,
    dialog button:focus-visible {
      outline: 2px solid var(--heed-focus-color, #1a5fd0);
      outline-offset: 2px;
    }
    dialog {
      max-width: min(92vw, 1200px);
      max-height: 92vh;
      padding: 0;
      border: none;
      border-radius: var(--heed-radius, 12px);
      color: var(--heed-text-color, #1f2328);
      background: var(--heed-background, #fff);
    }
    dialog::backdrop {
      background: rgb(0 0 0 / 70%);
    }
    .box {
      display: flex;
      flex-direction: column;
      max-height: 92vh;
      padding: 0 12px 12px;
    }
    .bar {
      display: flex;
      align-items: center;
      gap: 8px;
      padding-block: 6px;
      margin-inline-end: -6px;
    }
    h2 {
      flex: 1;
      min-width: 0;
      margin: 0;
      overflow: hidden;
      text-overflow: ellipsis;
      white-space: nowrap;
      font-size: 15px;
    }
    .close {
      display: grid;
      place-items: center;
      width: 36px;
      height: 36px;
      padding: 0;
      border: none;
      border-radius: var(--heed-radius-small, 8px);
      background: none;
      color: inherit;
      cursor: pointer;
    }
    .box img {
      display: block;
      align-self: center;
      min-height: 0;
      max-width: 100%;
      max-height: calc(92vh - 60px);
      width: auto;
      height: auto;
      object-fit: contain;
    }
  `,
];
