import { css } from 'lit';
import { base } from '../shared/styles.ts';

export const styles = [
  base,
  css`
    :host {
      display: block;
      max-width: 760px;
    }
    h1 {
      margin-top: 12px;
    }
    form {
      display: grid;
      gap: 16px;
    }
    fieldset {
      display: grid;
      gap: 12px;
      border: 1px solid var(--c-border);
      border-radius: 12px;
      padding: 12px 16px 16px;
      background: #fff;
      min-width: 0;
    }
    legend {
      font-weight: 700;
      padding: 0 4px;
    }
    section {
      margin: 20px 0;
    }
    .field {
      display: grid;
      gap: 4px;
    }
    /* the attachment kinds' groups, side by side inside their fieldset */
    .kinds {
      display: flex;
      flex-wrap: wrap;
      gap: 8px 40px;
    }
    .kinds fieldset {
      border: 0;
      padding: 0;
      gap: 4px;
      align-content: start;
      background: none;
    }
    .kinds legend {
      font-weight: 600;
      padding: 0 0 4px;
    }
    .with-unit {
      display: flex;
      align-items: center;
      gap: 8px;
    }
    .with-unit input {
      max-width: 140px;
    }
    .ok {
      color: var(--c-ok);
      margin-inline-start: 8px;
    }
    #snippet {
      margin-bottom: 8px;
    }
    .secret {
      border: 1px solid #f0c58a;
      background: #fff4e5;
      border-radius: 10px;
      padding: 10px;
      margin-bottom: 10px;
    }
    .secret p {
      margin: 0 0 6px;
    }
    .danger-zone {
      border-top: 1px solid var(--c-border);
      padding-top: 12px;
    }
  `,
];
