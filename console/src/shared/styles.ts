import { css } from 'lit';

/**
 * The console's building blocks, shared by every view's shadow root: type scale, form
 * fields, buttons, tables and the visually hidden text. Colours meet 4.5:1 on white;
 * focus is always a visible 2 px ring (keyboard-only operators rely on it).
 */
export const base = css`
  :host {
    --c-text: #1f2328;
    --c-muted: #57606a;
    --c-border: #d0d7de;
    --c-surface: #f6f8fa;
    --c-accent: #1a5fd0;
    --c-danger: #b42318;
    --c-ok: #047857;
    --c-focus: #1a5fd0;
    color: var(--c-text);
    font: 15px/1.45 system-ui, -apple-system, 'Segoe UI', sans-serif;
  }
  *,
  *::before,
  *::after {
    box-sizing: border-box;
  }
  h1,
  h2,
  h3 {
    line-height: 1.2;
    margin: 0 0 12px;
  }
  h1 {
    font-size: 1.45rem;
  }
  h2 {
    font-size: 1.15rem;
  }
  h3 {
    font-size: 1rem;
  }
  a {
    color: var(--c-accent);
  }
  :focus-visible {
    outline: 2px solid var(--c-focus);
    outline-offset: 2px;
  }
  .sr-only {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }
  .muted {
    color: var(--c-muted);
  }
  .error {
    color: var(--c-danger);
  }
  button,
  .button {
    font: inherit;
    display: inline-flex;
    align-items: center;
    gap: 6px;
    min-height: 36px;
    padding: 6px 14px;
    border-radius: 8px;
    border: 1px solid var(--c-border);
    background: #fff;
    color: var(--c-text);
    cursor: pointer;
    text-decoration: none;
  }
  button:hover,
  .button:hover {
    background: var(--c-surface);
  }
  button.primary {
    background: var(--c-accent);
    border-color: var(--c-accent);
    color: #fff;
  }
  button.primary:hover {
    background: #154da8;
  }
  button.danger {
    color: var(--c-danger);
    border-color: currentColor;
  }
  button[disabled] {
    opacity: 0.6;
    cursor: default;
  }
  label {
    display: grid;
    gap: 4px;
    font-weight: 600;
  }
  label.inline {
    display: flex;
    align-items: center;
    gap: 8px;
    font-weight: 400;
  }
  input,
  select,
  textarea {
    font: inherit;
    font-weight: 400;
    min-height: 36px;
    padding: 6px 10px;
    border: 1px solid #8c959f;
    border-radius: 8px;
    background: #fff;
    color: var(--c-text);
    width: 100%;
  }
  input[type='checkbox'],
  input[type='radio'] {
    width: auto;
    min-height: 0;
  }
  input[type='color'] {
    padding: 2px;
    width: 56px;
  }
  textarea {
    min-height: 90px;
    resize: vertical;
  }
  [aria-invalid='true'] {
    border-color: var(--c-danger);
  }
  .field-error {
    color: var(--c-danger);
    font-weight: 400;
    font-size: 0.9em;
  }
  .hint {
    color: var(--c-muted);
    font-weight: 400;
    font-size: 0.9em;
  }
  .card {
    border: 1px solid var(--c-border);
    border-radius: 12px;
    padding: 16px;
    background: #fff;
  }
  .row-actions {
    display: flex;
    flex-wrap: wrap;
    gap: 8px;
    align-items: center;
  }
  .table-wrap {
    overflow-x: auto;
    /* contains its absolutely placed children too (a header's sr-only label), which otherwise widen the page */
    position: relative;
  }
  table {
    border-collapse: collapse;
    width: 100%;
  }
  th,
  td {
    text-align: start;
    padding: 8px 10px;
    border-bottom: 1px solid var(--c-border);
    vertical-align: top;
  }
  th {
    font-size: 0.85em;
    color: var(--c-muted);
  }
  code,
  pre {
    font-family: ui-monospace, SFMono-Regular, Menlo, monospace;
    font-size: 0.9em;
  }
  pre {
    white-space: pre-wrap;
    word-break: break-all;
    background: var(--c-surface);
    border: 1px solid var(--c-border);
    border-radius: 8px;
    padding: 10px;
    margin: 0;
  }
`;

/** A section of a site's page below its settings (intents, API keys, figures): spacing and its tables. */
export const siteSection = css`
  :host {
    display: block;
    margin: 24px 0;
  }
  table {
    background: #fff;
    margin-bottom: 12px;
  }
`;
