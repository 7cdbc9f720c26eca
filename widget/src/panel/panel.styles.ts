import { css } from 'lit';
import { hostReset } from '../shared/host-reset.ts';
import { iconButton } from '../shared/pane-styles.ts';
import { srOnly } from '../shared/styles.ts';

export const styles = [
  hostReset,
  srOnly,
  iconButton,
  css`
    :host {
      display: block;
      position: relative;
      height: 100%;
      overflow: hidden;
      background: var(--heed-background, #fff);
    }
    /* Launcher mode: a floating panel above the launcher; on phones, the whole screen. */
    :host([placement='floating']) {
      position: fixed;
      inset-block-end: calc(var(--_gap, 20px) + var(--heed-launcher-size, 56px) + 12px);
      inset-inline-end: var(--_gap, 20px);
      width: var(--heed-panel-width, min(720px, calc(100vw - 2 * var(--_gap, 20px))));
      height: var(--heed-panel-height, min(640px, calc(100vh - 120px)));
      border-radius: var(--heed-radius, 12px);
      border: 1px solid var(--heed-border-color, #d0d7de);
      box-shadow: 0 12px 40px rgb(0 0 0 / 22%);
    }
    :host([placement='floating'][side='left']) {
      inset-inline-end: auto;
      inset-inline-start: var(--_gap, 20px);
    }
    /* the thread alone, its list behind ☰ (the panel widens when the visitor shows the list) */
    @media (min-width: 640px) {
      :host([placement='floating'][compact]) {
        width: var(--heed-panel-compact-width, min(400px, calc(100vw - 2 * var(--_gap, 20px))));
      }
    }
    @media (max-width: 639.98px) {
      :host([placement='floating']) {
        inset: 0;
        width: auto;
        height: auto;
        border-radius: 0;
        border: none;
      }
    }
    .panel {
      display: flex;
      height: 100%;
    }
    .main {
      flex: 1;
      display: flex;
      flex-direction: column;
      min-width: 0;
    }
    .body {
      flex: 1;
    }
    heed-sidebar[hidden] {
      display: none;
    }
    .drawer {
      position: absolute;
      inset-block: 0;
      inset-inline-start: 0;
      z-index: 2;
      width: min(85%, 288px);
      box-shadow: 4px 0 16px rgb(0 0 0 / 20%);
    }
    /* the drawer comes in from the right in RTL: its shadow falls on its left */
    .drawer:dir(rtl) {
      box-shadow: -4px 0 16px rgb(0 0 0 / 20%);
    }
    .scrim {
      position: absolute;
      inset: 0;
      z-index: 1;
      background: rgb(0 0 0 / 30%);
    }
  `,
];
