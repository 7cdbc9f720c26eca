import { css } from 'lit';
import { base } from '../shared/styles.ts';

export const styles = [
  base,
  css`
    :host {
      display: block;
      max-width: 900px;
    }
    table {
      background: #fff;
    }
    section {
      margin-top: 24px;
    }
    form {
      display: grid;
      gap: 12px;
      max-width: 420px;
    }
    .sites {
      max-width: 220px;
    }
    .sites-form {
      margin-top: 16px;
      max-width: 520px;
    }
    .site-choice {
      border: 1px solid var(--c-border);
      border-radius: 8px;
      padding: 8px 12px;
      display: grid;
      gap: 6px;
      margin: 0;
    }
    .site-choice legend {
      font-weight: 600;
      padding: 0 4px;
    }
    .site-boxes {
      display: grid;
      gap: 6px;
      padding-left: 24px;
    }
    .invite {
      margin-top: 12px;
      border: 1px solid #f0c58a;
      background: #fff4e5;
      border-radius: 10px;
      padding: 10px;
    }
    .invite p {
      margin: 0 0 6px;
    }
  `,
];
