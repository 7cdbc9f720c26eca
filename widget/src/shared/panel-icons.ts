import { svg } from 'lit';
import { icon } from './icons.ts';

/** Icons only the panel uses, kept out of the first chunk. */
/** live: a radio broadcasting */
export const radioIcon = () =>
  icon(
    svg`<circle cx="12" cy="12" r="2"/><path d="M16.2 7.8a6 6 0 0 1 0 8.4M7.8 16.2a6 6 0 0 1 0-8.4M19 5a10 10 0 0 1 0 14M5 19A10 10 0 0 1 5 5"/>`,
  );
/** input needed: a question */
export const questionIcon = () =>
  icon(svg`<circle cx="12" cy="12" r="9"/><path d="M9.5 9.5a2.5 2.5 0 1 1 3.5 2.3c-.6.3-1 .9-1 1.6v.6M12 17h.01"/>`);
/** unviewed: a message with text, the reply waiting to be read */
export const messageIcon = () =>
  icon(svg`<path d="M21 15a2 2 0 0 1-2 2H7l-4 4V5a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2z"/><path d="M8 8h8M8 12h5"/>`);
export const plusIcon = () => icon(svg`<path d="M12 5v14M5 12h14"/>`);
export const menuIcon = () => icon(svg`<path d="M4 6h16M4 12h16M4 18h16"/>`);
export const collapseIcon = () => icon(svg`<path d="M15 6l-6 6 6 6"/>`);
export const expandIcon = () => icon(svg`<path d="M9 6l6 6-6 6"/>`);
export const sendIcon = () => icon(svg`<path d="M4 12l16-8-6 16-2-7z"/>`);
export const homeIcon = () => icon(svg`<path d="M4 11l8-7 8 7v9h-5v-6H9v6H4z"/>`);
export const pencilIcon = () => icon(svg`<path d="M4 20h4L19 9l-4-4L4 16zM13 7l4 4"/>`);
/** the conversation menu: three dots */
export const moreIcon = () => icon(svg`<circle cx="12" cy="5" r="1"/><circle cx="12" cy="12" r="1"/><circle cx="12" cy="19" r="1"/>`);
/** waiting for a person: a person */
export const personIcon = () => icon(svg`<circle cx="12" cy="8" r="4"/><path d="M4 21a8 8 0 0 1 16 0"/>`);
/** attach files: a paperclip */
export const paperclipIcon = () => icon(svg`<path d="M21 11l-9 9a6 6 0 0 1-9-9l9-9a4 4 0 0 1 6 6l-9 9a2 2 0 0 1-3-3l8-8"/>`);
