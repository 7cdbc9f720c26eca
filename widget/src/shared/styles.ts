import { css } from 'lit';

/**
 * Shared pieces of CSS: visually hidden text, the attention colours and the badges' colours.
 * Visually hidden text is only ever spans and a margin-less heading here, so no margin,
 * padding or border resets.
 */
export const srOnly = css`
  .sr-only {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }
`;

/**
 * Colours per attention state, overridable on any Heed element's host. Chosen for at
 * least 4.5:1 contrast of white text on the badge colours.
 */
export const stateColours = css`
  :host {
    --_live: var(--heed-live-color, #047857);
    --_input: var(--heed-input-needed-color, #a04f00);
    --_unviewed: var(--heed-unviewed-color, #1a5fd0);
    --_waiting: var(--heed-waiting-color, #6639ba);
  }
`;

/**
 * A badge's colour from its `data-state`: the launcher's badge and the host page's. Live and
 * input needed pulse, unless the visitor asks for reduced motion (one rule, in the first
 * chunk: ~60 bytes gzip).
 */
export const badgeColours = css`
  [data-state='live'] {
    background: var(--_live);
  }
  [data-state='input_needed'] {
    background: var(--_input);
  }
  [data-state='unviewed'] {
    background: var(--_unviewed);
  }
  @media (prefers-reduced-motion: no-preference) {
    [data-state='live'],
    [data-state='input_needed'] {
      animation: heed-pulse 1.4s ease-in-out infinite;
    }
  }
  @keyframes heed-pulse {
    50% {
      transform: scale(1.18);
    }
  }
`;
