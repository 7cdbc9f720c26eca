import type { HeedApi } from '../state/heed-api.ts';
import type { AttachmentSettings, AttachmentView } from '../state/types.ts';

/** What attaching needs from the panel: the site's settings, where files upload, and to which conversation. */
export interface ComposerAttach {
  settings: AttachmentSettings;
  api: HeedApi;
  /** the open conversation: the files shown are the ones waiting to go there */
  conversationId: string | null;
  /** the conversation files attached now go to (from the home view, the one a send would go to); null: none can be had */
  target(): Promise<string | null>;
}

/** What the list of files needs of the composer it sits in (`<heed-composer>`). */
export interface TrayHost extends HTMLElement {
  /** what the send button says instead of "Send" (null: "Send") */
  sendLabel: string | null;
  requestUpdate(): void;
  /** sends the words with the files; false when nothing went (no words and no files, or a listener cancelled the send) */
  deliver(attachments?: AttachmentView[], conversationId?: string): boolean;
}
