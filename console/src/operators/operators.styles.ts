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
