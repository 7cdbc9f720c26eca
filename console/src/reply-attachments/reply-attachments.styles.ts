import { css } from 'lit';
import { base } from '../shared/styles.ts';

/** One line for the button and its hint, then the chips, wrapping, each a rounded pill. */
export const styles = [
  base,
  css`
    :host {
      display: grid;
      grid-template-columns: minmax(0, 1fr);
      gap: 6px;
    }
    /* the reply box hides it while it writes a note: :host's display would otherwise win */
    :host([hidden]) {
      display: none;
    }
    .attach {
      display: flex;
      flex-wrap: wrap;
      align-items: center;
      gap: 4px 10px;
    }
    .attach button {
      min-height: 32px;
      padding: 3px 12px;
    }
    .chips {
      display: flex;
      flex-wrap: wrap;
      gap: 6px;
      list-style: none;
      margin: 0;
      padding: 0;
    }
    .chip {
      display: flex;
      align-items: center;
      gap: 6px;
      max-width: 100%;
      padding: 2px 2px 2px 10px;
      border: 1px solid var(--c-border);
      border-radius: 999px;
      background: var(--c-surface);
      font-size: 0.9em;
    }
    .name {
      min-width: 0;
      overflow: hidden;
      text-overflow: ellipsis;
      white-space: nowrap;
      max-width: 220px;
    }
    .size,
    .ok {
      white-space: nowrap;
    }
    .size {
      color: var(--c-muted);
    }
    .ok {
      color: var(--c-ok);
    }
    progress {
      width: 64px;
    }
    .remove {
      min-height: 28px;
      min-width: 28px;
      justify-content: center;
      padding: 0;
      border-radius: 999px;
      border-color: transparent;
      background: transparent;
      font-size: 1.1em;
      line-height: 1;
    }
    .remove:hover {
      background: #fff;
    }
    .error p {
      margin: 0;
    }
  `,
];
