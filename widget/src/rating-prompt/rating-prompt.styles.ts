import { css } from 'lit';

export const styles = css`
  :host {
    display: block;
  }
  .prompt {
    align-self: center;
    margin: 4px auto 0;
    max-width: 90%;
    padding: 10px 12px;
    text-align: center;
    font-size: 13.5px;
    border: 1px solid var(--heed-border-color, #d0d7de);
    border-radius: var(--heed-radius, 12px);
    color: var(--heed-text-color, #1f2328);
  }
  p {
    margin: 0 0 8px;
  }
  .thumbs {
    display: flex;
    justify-content: center;
    gap: 8px;
  }
  button {
    padding: 5px 12px;
    font: inherit;
    color: inherit;
    border: 1px solid var(--heed-border-color, #d0d7de);
    border-radius: 999px;
    background: var(--heed-background, #fff);
    cursor: pointer;
  }
  button[aria-pressed='true'] {
    color: var(--heed-accent-contrast, var(--_site-accent-contrast, #fff));
    border-color: var(--heed-accent, var(--_site-accent, #1f2328));
    background: var(--heed-accent, var(--_site-accent, #1f2328));
  }
  button:disabled {
    cursor: default;
    opacity: 0.7;
  }
  button:focus-visible,
  textarea:focus-visible,
  .status:focus-visible {
    outline: 2px solid var(--heed-focus-color, #1a5fd0);
    outline-offset: 1px;
  }
  form {
    display: grid;
    gap: 6px;
    margin-top: 10px;
    text-align: start;
  }
  textarea {
    resize: vertical;
    min-height: 56px;
    box-sizing: border-box;
    padding: 6px 8px;
    font: inherit;
    /* iOS zooms the page into a text box under 16 px */
    font-size: max(16px, 1em);
    color: inherit;
    border: 1px solid var(--heed-border-color, #d0d7de);
    border-radius: var(--heed-radius-small, 8px);
    background: var(--heed-input-background, #fff);
  }
  form button {
    justify-self: end;
    border-radius: var(--heed-radius-small, 8px);
  }
  .status {
    margin: 8px 0 0;
    color: var(--heed-muted-color, #57606a);
  }
  /* an empty live region keeps its place in the tree (so its first words are spoken), not its margin */
  .status:empty {
    margin: 0;
  }
  .error {
    margin: 8px 0 0;
    color: var(--heed-error-color, #b42318);
  }
`;
