import { css } from 'lit';
import { srOnly } from '../shared/styles.ts';
import { scrollPane } from '../shared/pane-styles.ts';

export const styles = [
  srOnly,
  scrollPane,
  css`
    :host {
      background: var(--heed-thread-background, var(--heed-background, #fff));
    }
    .list {
      display: flex;
      flex-direction: column;
      gap: 10px;
    }
    .message {
      max-width: 85%;
      padding: 8px 12px;
      border-radius: var(--heed-radius, 12px);
      line-height: 1.45;
      overflow-wrap: anywhere;
    }
    .user {
      align-self: flex-end;
      white-space: pre-wrap;
      color: var(--heed-visitor-text, #fff);
      background: var(--heed-visitor-background, #1f2328);
    }
    .user.pending {
      opacity: 0.7;
    }
    .mark {
      display: block;
      font-size: 11.5px;
      opacity: 0.85;
      text-align: end;
    }
    .assistant {
      align-self: flex-start;
      color: var(--heed-text-color, #1f2328);
      background: var(--heed-reply-background, #f0f2f4);
    }
    .assistant.failed {
      background: var(--heed-failed-background, #ffebe9);
      border: 1px solid var(--heed-failed-border, #ff8182);
    }
    .operator {
      background: var(--heed-operator-background, #eef4ff);
      border: 1px solid var(--heed-operator-border, #c6d7f5);
    }
    .notice {
      align-self: center;
      max-width: 90%;
      margin: 2px 0;
      text-align: center;
      font-size: 12.5px;
      color: var(--heed-muted-color, #57606a);
    }
    .sources {
      margin: 8px 0 0;
      padding: 6px 0 0;
      list-style: none;
      border-top: 1px solid var(--heed-border-color, #d0d7de);
      font-size: 12.5px;
    }
    .sources a {
      color: var(--heed-link-color, #0550ae);
    }
    .sources .host {
      color: var(--heed-muted-color, #57606a);
    }
    .cut {
      margin: 6px 0 0;
      font-size: 12.5px;
      font-style: italic;
      color: var(--heed-muted-color, #57606a);
    }
    .provenance {
      display: block;
      font-size: 11.5px;
      color: var(--heed-muted-color, #57606a);
    }
    .md > :first-child {
      margin-top: 0;
    }
    .md > :last-child {
      margin-bottom: 0;
    }
    .md pre {
      overflow-x: auto;
      padding: 8px;
      border-radius: 6px;
      background: rgb(0 0 0 / 6%);
    }
    .md a {
      color: var(--heed-link-color, #0550ae);
    }
    .typing {
      display: inline-flex;
      gap: 4px;
      padding: 4px 0;
    }
    .typing span {
      width: 7px;
      height: 7px;
      border-radius: 50%;
      background: currentColor;
      opacity: 0.35;
      animation: rise 1.2s ease-in-out infinite;
    }
    .typing span:nth-child(2) {
      animation-delay: 0.2s;
    }
    .typing span:nth-child(3) {
      animation-delay: 0.4s;
    }
    @keyframes rise {
      0%,
      60%,
      100% {
        transform: translateY(0);
        opacity: 0.35;
      }
      30% {
        transform: translateY(-4px);
        opacity: 0.9;
      }
    }
    @media (prefers-reduced-motion: reduce) {
      .typing span {
        animation: none;
        opacity: 0.6;
      }
    }
    button {
      margin-top: 6px;
      font: inherit;
      padding: 4px 11px;
      border-radius: 6px;
      border: 1px solid currentColor;
      background: var(--heed-background, #fff);
      cursor: pointer;
    }
    .choices {
      display: flex;
      flex-wrap: wrap;
      gap: 6px;
    }
    .choices button {
      color: inherit;
    }
    button:disabled {
      cursor: default;
      opacity: 0.6;
    }
    .hint {
      margin: 6px 0 0;
      font-size: 13px;
      color: var(--heed-muted-color, #57606a);
    }
    .empty {
      color: var(--heed-muted-color, #57606a);
      text-align: center;
      margin-top: 32px;
    }
    /* files without words: no empty bubble around them (last, so it wins over the bubbles' colours) */
    .files-only {
      padding: 0;
      border: 0;
      color: inherit;
      background: none;
    }
  `,
];
