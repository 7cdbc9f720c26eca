import { css } from 'lit';
import { stateColours } from '../shared/styles.ts';

export const styles = [
  stateColours,
  css`
    :host {
      display: block;
    }
    div {
      padding: 3px 12px;
      font-size: 12.5px;
      color: var(--_live);
      background: var(--heed-live-background, #e9f6ee);
      border-block-end: 1px solid var(--heed-live-border, #9fd3b0);
    }
  `,
];
