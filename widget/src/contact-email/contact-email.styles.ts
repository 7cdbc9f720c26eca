import { css } from 'lit';

export const styles = css`
  :host {
    display: block;
    padding: 0 12px 8px;
  }
  .box {
    margin: 0;
    padding: 10px 12px;
    font-size: 13.5px;
    border: 1px solid var(--heed-border-color, #d0d7de);
    border-radius: var(--heed-radius, 12px);
    color: var(--heed-text-color, #1f2328);
    background: var(--heed-background, #fff);
  }
  p {
    margin: 0 0 8px;
  }
  label {
    display: block;
    margin-bottom: 4px;
    font-weight: 600;
  }
  .row {
    display: flex;
    flex-wrap: wrap;
    gap: 6px;
  }
  input {
    flex: 1 1 12em;
    min-width: 0;
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
  input[aria-invalid='true'] {
    border-color: var(--heed-error-color, #b42318);
  }
  button {
    padding: 6px 12px;
    font: inherit;
    color: inherit;
    border: 1px solid var(--heed-border-color, #d0d7de);
    border-radius: var(--heed-radius-small, 8px);
    background: var(--heed-background, #fff);
    cursor: pointer;
  }
  .save {
    color: var(--heed-accent-contrast, var(--_site-accent-contrast, #fff));
    border-color: var(--heed-accent, var(--_site-accent, #1f2328));
    background: var(--heed-accent, var(--_site-accent, #1f2328));
  }
  button:disabled {
    cursor: default;
    opacity: 0.7;
  }
  input:focus-visible,
  button:focus-visible,
  .saved:focus-visible {
    outline: 2px solid var(--heed-focus-color, #1a5fd0);
    outline-offset: 1px;
  }
  .error {
    margin: 6px 0 0;
    color: var(--heed-error-color, #b42318);
  }
  .saved {
    color: var(--heed-muted-color, #57606a);
  }
`;
