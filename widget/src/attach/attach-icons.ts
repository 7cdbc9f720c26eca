import { svg } from 'lit';
import { icon } from '../shared/icons.ts';

/** Icons only attachments use, in their chunk. */
/** a file that is not an image (a page with a folded corner) */
export const fileIcon = () => icon(svg`<path d="M14 3H6a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V9z"/><path d="M14 3v6h6"/>`);
/** upload again: a circling arrow */
export const retryIcon = () => icon(svg`<path d="M20 12a8 8 0 1 1-2.3-5.7M20 4v5h-5"/>`);
