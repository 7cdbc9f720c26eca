import { css } from 'lit';
import { iconButton } from '../shared/pane-styles.ts';
import { srOnly } from '../shared/styles.ts';

export const styles = [
  srOnly,
  iconButton,
  css`
    :host {
      display: block;
    }
    :host([hidden]) {
      display: none;
    }
    .drop {
      position: absolute;
      inset: 8px;
      z-index: 3;
      display: grid;
      place-items: center;
      padding: 16px;
      text-align: center;
      font-weight: 600;
      pointer-events: none;
      border: 2px dashed var(--heed-focus-color, #1a5fd0);
      border-radius: var(--heed-radius, 12px);
      color: var(--heed-text-color, #1f2328);
      background: color-mix(in srgb, var(--heed-background, #fff) 92%, transparent);
    }
    ul {
      display: flex;
      flex-direction: column;
      gap: 6px;
      max-height: 176px;
      overflow-y: auto;
      margin: 0;
      padding: 0;
      list-style: none;
    }
    .chip {
      display: flex;
      align-items: center;
      gap: 8px;
      padding: 4px 6px;
      border: 1px solid var(--heed-border-color, #d0d7de);
      border-radius: var(--heed-radius-small, 8px);
      background: var(--heed-input-background, #fff);
      font-size: 13px;
    }
    .chip[data-state='refused'],
    .chip[data-state='failed'] {
      border-color: var(--heed-failed-border, #ff8182);
      background: var(--heed-failed-background, #ffebe9);
    }
    canvas,
    .icon {
      flex: none;
      width: 40px;
      height: 40px;
      border-radius: 4px;
    }
    .icon {
      display: grid;
      place-items: center;
      background: rgb(0 0 0 / 5%);
    }
    .about {
      flex: 1;
      min-width: 0;
      display: flex;
      flex-wrap: wrap;
      align-items: center;
      column-gap: 8px;
    }
    .name {
      min-width: 0;
      max-width: 100%;
      overflow: hidden;
      text-overflow: ellipsis;
      white-space: nowrap;
      font-weight: 600;
    }
    .size,
    .note {
      color: var(--heed-muted-color, #57606a);
    }
    progress {
      flex-basis: 100%;
      height: 6px;
      accent-color: var(--heed-accent, var(--_site-accent, #1f2328));
    }
    .why {
      flex-basis: 100%;
      overflow-wrap: anywhere;
    }
    .note {
      margin: 6px 0 0;
      font-size: 13px;
    }
    button {
      flex: none;
    }
  `,
];
