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
      background: var(--heed-live-background, #ecfdf5);
      border-block-end: 1px solid var(--heed-live-border, #a7f3d0);
    }
  `,
];
