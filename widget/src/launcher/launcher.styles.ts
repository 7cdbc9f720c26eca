import { css } from 'lit';
import { hostReset } from '../shared/host-reset.ts';
import { badgeColours, srOnly, stateColours } from '../shared/styles.ts';

export const styles = [
  hostReset,
  srOnly,
  stateColours,
  badgeColours,
  css`
    :host {
      position: relative;
      display: block;
    }
    button {
      display: grid;
      place-items: center;
      width: var(--heed-launcher-size, 56px);
      height: var(--heed-launcher-size, 56px);
      border-radius: 50%;
      border: none;
      cursor: pointer;
      color: var(--heed-accent-contrast, var(--_site-accent-contrast, #fff));
      background: var(--heed-accent, var(--_site-accent, #1f2328));
      box-shadow: 0 4px 14px #00000040;
    }
    button:focus-visible {
      outline: 3px solid var(--heed-focus-color, #1a5fd0);
      outline-offset: 2px;
    }
    svg {
      width: 26px;
      height: 26px;
    }
    .badge {
      position: absolute;
      top: -4px;
      inset-inline-end: -4px;
      min-width: 20px;
      height: 20px;
      padding-inline: 5px;
      box-sizing: border-box;
      border-radius: 10px;
      border: 2px solid var(--heed-background, #fff);
      font: 700 11px/16px system-ui, sans-serif;
      text-align: center;
      color: #fff;
      pointer-events: none;
    }
    /* only for visitors who do not ask for reduced motion (one rule instead of an override) */
    @media (prefers-reduced-motion: no-preference) {
      button {
        transition: transform 120ms ease;
      }
      button:hover {
        transform: scale(1.05);
      }
    }
  `,
];
