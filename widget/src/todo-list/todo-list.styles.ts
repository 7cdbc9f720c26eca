import { css } from 'lit';

export const styles = css`
  :host {
    display: block;
  }
  .bar {
    padding: 5px 12px;
    border-block-end: 1px solid var(--heed-border-color, #d0d7de);
    background: var(--heed-todo-background, var(--heed-background, #fff));
    font-size: 13.5px;
  }
  button {
    display: flex;
    align-items: center;
    gap: 4px;
    padding: 2px 4px;
    font: inherit;
    color: inherit;
    border: none;
    border-radius: 6px;
    background: none;
    cursor: pointer;
  }
  button:focus-visible {
    outline: 2px solid var(--heed-focus-color, #1a5fd0);
  }
  svg {
    width: 14px;
    height: 14px;
  }
  /* closed, the chevron points along the reading direction; open, down (the rule after this one) */
  svg:dir(rtl) {
    transform: scaleX(-1);
  }
  [aria-expanded='true'] svg {
    transform: rotate(90deg);
  }
  ul {
    margin: 3px 0 5px;
    padding-inline-start: 26px;
    max-height: 128px;
    overflow-y: auto;
    overflow-wrap: anywhere;
  }
`;
