import { css } from 'lit';
import { base } from '../shared/styles.ts';

export const styles = [
  base,
  css`
    :host {
      display: block;
      max-width: 1100px;
    }
    h1 {
      margin-top: 12px;
      overflow-wrap: anywhere;
    }
    section {
      margin-top: 24px;
    }
    .facts {
      display: flex;
      flex-wrap: wrap;
      gap: 4px 16px;
      color: var(--c-muted);
      margin: 0 0 12px;
    }
    .actions {
      display: flex;
      flex-wrap: wrap;
      gap: 12px;
      align-items: end;
    }
    .rename {
      display: flex;
      flex-wrap: wrap;
      gap: 8px;
      align-items: end;
    }
    .rename label:first-child {
      min-width: min(280px, 100%);
    }
    .messages {
      list-style: none;
      margin: 0;
      padding: 0;
      display: grid;
      gap: 10px;
    }
    .message {
      background: #fff;
      border: 1px solid var(--c-border);
      border-inline-start: 4px solid var(--c-border);
      border-radius: 10px;
      padding: 10px 12px;
    }
    .message[data-role='user'] {
      border-inline-start-color: #8c959f;
    }
    .message[data-role='assistant'] {
      border-inline-start-color: var(--c-accent);
    }
    .message[data-role='operator'] {
      border-inline-start-color: var(--c-ok);
    }
    .message[data-role='operator'] strong {
      color: var(--c-ok);
    }
    .message[data-provenance='intent'],
    .message[data-provenance='check_in'],
    .message[data-provenance='server'] {
      border-inline-start-style: dashed;
    }
    /* the team's own words: a paper-yellow card, never mistaken for what the visitor reads */
    .note {
      background: #fff8e1;
      border: 1px dashed #a16207;
      border-radius: 10px;
      padding: 10px 12px;
    }
    .note strong {
      color: #854d0e;
    }
    .note .who {
      display: flex;
      flex-wrap: wrap;
      gap: 4px 10px;
      align-items: baseline;
    }
    .note .content {
      white-space: pre-wrap;
      margin-top: 4px;
    }
    heed-console-takeover {
      margin-top: 10px;
    }
    /* where the conversation has a pane of its own, the writing box stays in view at its foot */
    @media (min-width: 1100px) {
      heed-console-takeover {
        position: sticky;
        bottom: 0;
        z-index: 1;
        box-shadow: 0 -6px 12px rgb(246 248 250 / 90%);
      }
    }
    .notice {
      text-align: center;
      color: var(--c-muted);
      font-size: 0.9em;
      padding: 2px 0;
    }
    .notice span {
      font-weight: 600;
    }
    .notice time {
      font-size: 0.9em;
    }
    .private {
      border: 1px solid var(--c-border);
      background: var(--c-surface);
      border-radius: 8px;
      padding: 8px 12px;
    }
    .waiting {
      color: #8a4b00;
      font-weight: 700;
    }
    heed-console-takeover {
      margin-top: 12px;
    }
    .message[data-failed='true'] {
      border-inline-start-color: var(--c-danger);
    }
    .who {
      display: flex;
      flex-wrap: wrap;
      gap: 4px 10px;
      align-items: baseline;
      font-size: 0.9em;
    }
    .n,
    time,
    .visitor-time {
      color: var(--c-muted);
    }
    .content {
      white-space: pre-wrap;
      overflow-wrap: anywhere;
      margin-top: 4px;
    }
    .message p {
      margin: 6px 0;
    }
    /* answered since: history, not a call to act */
    .superseded,
    .cut {
      color: var(--c-muted);
    }
    table {
      font-size: 0.9em;
    }
    td {
      white-space: nowrap;
    }
    .plain {
      padding-inline-start: 20px;
    }
  `,
];
