import { css } from 'lit';
import { base } from '../shared/styles.ts';

/** Thumbnails in a row that wraps, files one a line; the dialog as large as the window allows. */
export const styles = [
  base,
  css`
    :host {
      display: block;
      margin-top: 6px;
    }
    .attachments {
      display: flex;
      flex-wrap: wrap;
      gap: 6px 8px;
      list-style: none;
      margin: 0;
      padding: 0;
    }
    .file,
    .withheld {
      flex-basis: 100%;
      min-width: 0;
      overflow-wrap: anywhere;
    }
    .facts {
      color: var(--c-muted);
      font-size: 0.9em;
    }
    .file .facts::before {
      content: ' · ';
    }
    .withheld {
      font-size: 0.9em;
    }
    .thumb {
      padding: 2px;
      min-height: 0;
      border-radius: 8px;
      background: var(--c-surface);
      line-height: 0;
    }
    .thumb img {
      display: block;
      /* the size attributes give the scaled size; these bound an image whose size is unknown */
      max-width: 160px;
      max-height: 120px;
      object-fit: contain;
      border-radius: 6px;
    }
    dialog {
      padding: 0;
      border: 1px solid var(--c-border);
      border-radius: 12px;
      max-width: calc(100vw - 32px);
      max-height: calc(100dvh - 32px);
    }
    dialog::backdrop {
      background: rgb(0 0 0 / 0.6);
    }
    .frame {
      display: grid;
      gap: 10px;
      padding: 12px;
    }
    .bar {
      display: flex;
      flex-wrap: wrap;
      align-items: center;
      gap: 6px 12px;
    }
    .bar h2 {
      margin: 0;
      font-size: 1rem;
      overflow-wrap: anywhere;
    }
    .close {
      margin-inline-start: auto;
    }
    .frame img {
      display: block;
      max-width: calc(100vw - 58px);
      max-height: calc(100dvh - 120px);
      width: auto;
      height: auto;
      object-fit: contain;
      margin: 0 auto;
    }
  `,
];
