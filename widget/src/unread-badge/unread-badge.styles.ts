import { css } from 'lit';
import { pageHostReset } from '../shared/host-reset.ts';
import { badgeColours, srOnly, stateColours } from '../shared/styles.ts';

export const styles = [
  ...pageHostReset,
  srOnly,
  stateColours,
  css`
    :host {
      display: inline-block;
      vertical-align: middle;
    }
    :host([idle]) {
      display: none;
    }
    /* the reset again: the page's rules for heed-unread-badge itself (say, * { … }) reach the host, never the pill */
    [part='badge'] {
      all: initial;
      display: inline-block;
      min-width: 1.25em;
      padding: 0 0.4em;
      box-sizing: border-box;
      border-radius: 999px;
      font: 700 12px/1.5 system-ui, sans-serif;
      text-align: center;
      color: #fff;
    }
  `,
  // after the pill's reset, which clears its background
  badgeColours,
];
