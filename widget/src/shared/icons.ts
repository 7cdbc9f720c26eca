import { svg, type SVGTemplateResult } from 'lit';

/** Inline icons (24 px grid, currentColor); decorative, so hidden from assistive tech. */
export const icon = (body: SVGTemplateResult) =>
  svg`<svg viewBox="0 0 24 24" width="18" height="18" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true" focusable="false">${body}</svg>`;

export const chatIcon = () => icon(svg`<path d="M21 12a8 8 0 0 1-11.6 7.1L4 20l1-4.4A8 8 0 1 1 21 12z"/>`);
export const closeIcon = () => icon(svg`<path d="M6 6l12 12M18 6L6 18"/>`);
