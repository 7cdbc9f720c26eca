import type { Prisma } from '../db/client.ts';

/**
 * A file attached to a message, as a reader of the conversation sees it. The bytes are fetched
 * from `url`, on the API's origin, signed for whoever was given this view (the visitor, or an
 * operator); it stays valid for days, and the file route checks the reader still has access.
 */
export interface AttachmentView {
  id: string;
  /** the file's name as the uploader's device gave it, cleaned (no path, no control characters) */
  name: string;
  /** the type decided from the bytes: image/png, image/jpeg, image/webp, image/gif, application/pdf, text/plain */
  mime: string;
  /** `image`: shown in the thread; `file`: a named link with its size */
  kind: 'image' | 'file';
  bytes: number;
  /** an image's size in pixels (null for other files) */
  width: number | null;
  height: number | null;
  /** where to fetch it; null where it is withheld (a private conversation in the console) */
  url: string | null;
}

/** The columns an attachment's view is made of: what was decided from its bytes, and its address. */
export const attachmentSelect = {
  id: true,
  name: true,
  mime: true,
  bytes: true,
  width: true,
  height: true,
  accessKey: true,
} satisfies Prisma.AttachmentSelect;

export type AttachmentRow = Prisma.AttachmentGetPayload<{ select: typeof attachmentSelect }>;

/** A message's attachments in the order they were attached (Prisma's nested select). */
export const messageAttachmentsSelect = { select: attachmentSelect, orderBy: { position: 'asc' } } satisfies Prisma.Message$attachmentsArgs;

/**
 * The file's address relative to the API's base URL (`new URL(url, apiBase)`): the widget
 * embeds it on another origin, the console on the API's own.
 * @example attachmentUrl({ id, accessKey }) // 'files/6f1c…?k=Zq3…'
 */
export const attachmentUrl = (a: { id: string; accessKey: string }): string => `files/${a.id}?k=${a.accessKey}`;

/**
 * An attachment as a reader sees it. `withheld`: its name and address are kept from the console
 * (the visitor made the conversation private); its kind and size stay.
 * @example toAttachmentView(row) // { id, name: 'error.png', kind: 'image', url: 'files/…?k=…', … }
 */
export function toAttachmentView(a: AttachmentRow, opts: { withheld?: boolean } = {}): AttachmentView {
  const image = a.mime.startsWith('image/');
  return {
    id: a.id,
    name: opts.withheld ? '' : a.name,
    mime: a.mime,
    kind: image ? 'image' : 'file',
    bytes: a.bytes,
    width: a.width,
    height: a.height,
    url: opts.withheld ? null : attachmentUrl(a),
  };
}
