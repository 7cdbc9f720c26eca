import { HeedAttachmentTray } from './attachment-tray.component.ts';
import { HeedMessageFiles } from './message-files.component.ts';
import { stringsReady } from './strings.ts';
import { define } from '../shared/define.ts';

/**
 * Attachments, their own chunk (`widget-chunks/attach-….js`), imported by `load.ts` the first
 * time a visitor attaches a file or a thread shows one: the files waiting to go with a message
 * (`<heed-attachment-tray>`) and the files in the thread (`<heed-message-files>`). The elements
 * are defined once the strings of the widget's language are in (`ready`), so neither first
 * renders in another language. A promise, not a top-level await: one in this chunk made the
 * bundler split the first chunk into seven.
 */
export const ready: Promise<void> = stringsReady().then(() => {
  define('heed-attachment-tray', HeedAttachmentTray);
  define('heed-message-files', HeedMessageFiles);
});

export { HeedAttachmentTray, HeedMessageFiles };

declare global {
  interface HTMLElementTagNameMap {
    'heed-attachment-tray': HeedAttachmentTray;
    'heed-message-files': HeedMessageFiles;
  }
}
