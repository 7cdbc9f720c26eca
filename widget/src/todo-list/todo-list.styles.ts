import { css } from 'lit';

export const styles = css`
  :host {
    display: block;
  }
  .bar {
    padding: 0.3rem 0.75rem;
    border-block-end: 1px solid var(--heed-border-color, #d0d7de);
    background: var(--heed-todo-background, var(--heed-background, #fff));
    font-size: 0.85rem;
  }
  button {
    display: flex;
    align-items: center;
    gap: 0.25rem;
    padding: 0.15rem 0.25rem;
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
  [aria-expanded='true'] svg {
    transform: rotate(90deg);
  }
  ul {
    margin: 0.2rem 0 0.3rem;
    padding-inline-start: 1.6rem;
    max-height: 8rem;
    overflow-y: auto;
    overflow-wrap: anywhere;
  }
`;
