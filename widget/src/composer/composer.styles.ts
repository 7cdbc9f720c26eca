import { css } from 'lit';
import { srOnly } from '../shared/styles.ts';

export const styles = [
  srOnly,
  css`
    :host {
      display: block;
    }
    form {
      display: flex;
      flex-wrap: wrap;
      align-items: flex-end;
      gap: 6px;
      padding: 9px 10px;
      border-block-start: 1px solid var(--heed-border-color, #d0d7de);
      background: var(--heed-background, #fff);
    }
    textarea {
      flex: 1;
      resize: none;
      field-sizing: content;
      min-height: 38px;
      max-height: 144px;
      box-sizing: border-box;
      padding: 8px 10px;
      font: inherit;
      /* iOS zooms the page into a text box under 16 px */
      font-size: max(16px, 1em);
      color: inherit;
      border: 1px solid var(--heed-border-color, #d0d7de);
      border-radius: var(--heed-radius-small, 8px);
      background: var(--heed-input-background, #fff);
    }
    textarea:focus-visible,
    button:focus-visible {
      outline: 2px solid var(--heed-focus-color, #1a5fd0);
      outline-offset: 1px;
    }
    /* the paper plane flies toward the reading direction */
    button svg:dir(rtl) {
      transform: scaleX(-1);
    }
    /* the files waiting to go: a row of their own above the box */
    heed-attachment-tray {
      flex-basis: 100%;
    }
    button {
      display: grid;
      place-items: center;
      width: 38px;
      height: 38px;
      border: none;
      border-radius: var(--heed-radius-small, 8px);
      cursor: pointer;
      color: var(--heed-accent-contrast, var(--_site-accent-contrast, #fff));
      background: var(--heed-accent, var(--_site-accent, #1f2328));
    }
    .attach {
      color: inherit;
      background: none;
    }
  `,
];
