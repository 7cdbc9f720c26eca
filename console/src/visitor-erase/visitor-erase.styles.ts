import { css } from 'lit';
import { base } from '../shared/styles.ts';

export const styles = [
  base,
  css`
    :host {
      display: block;
    }
    .error {
      margin: 6px 0 0;
    }
  `,
];
