/**
 * The kinds of file a visitor may attach, each decided from the bytes (never the name or the
 * browser's claim), with the type it is served as. Shared by the API (upload checks, site
 * settings) and the widget (the picker's `accept`, refusal messages): one owner of the list.
 * SVG and HTML are never among them: both run script when opened from the API's origin.
 */
export const ATTACHMENT_KINDS = {
  png: { mime: 'image/png', image: true, label: 'PNG' },
  jpeg: { mime: 'image/jpeg', image: true, label: 'JPEG' },
  webp: { mime: 'image/webp', image: true, label: 'WebP' },
  gif: { mime: 'image/gif', image: true, label: 'GIF' },
  pdf: { mime: 'application/pdf', image: false, label: 'PDF' },
  text: { mime: 'text/plain', image: false, label: 'plain text' },
} as const;

export type AttachmentKind = keyof typeof ATTACHMENT_KINDS;

export const ATTACHMENT_KIND_NAMES = Object.keys(ATTACHMENT_KINDS) as AttachmentKind[];

/** Whether a stored name is one of the kinds (a site's list is stored as text). */
export const isAttachmentKind = (name: string): name is AttachmentKind => Object.hasOwn(ATTACHMENT_KINDS, name);

/** At most this many files go with one message. */
export const ATTACHMENTS_PER_MESSAGE = 10;

/** The kind a stored type is (`image/png` → `png`), or null for a type no kind has. */
export function kindOfMime(mime: string): AttachmentKind | null {
  for (const name of ATTACHMENT_KIND_NAMES) if (ATTACHMENT_KINDS[name].mime === mime) return name;
  return null;
}

/**
 * Why an upload was refused, as the widget and the console show it (the API answers the code
 * with an English sentence; clients word it in their own language from the code).
 */
export type UploadRefusalCode =
  /** over the site's per-file limit (`limitBytes` says it) */
  | 'file_too_large'
  /** this message's files together would pass the site's per-message limit */
  | 'message_files_too_large'
  /** a type the site does not take, or one never taken (SVG, HTML): `detected` names it when known */
  | 'file_type_refused'
  /** the bytes say one type but do not hold a whole file of it (a broken image or PDF) */
  | 'file_damaged'
  /** nothing in it */
  | 'file_empty'
  /** the site takes no attachments at all */
  | 'attachments_off';

/**
 * `10 MB`, `840 KB`, `312 bytes`: sizes as the widget and the console write them, in units of
 * 1,024 (so the default limits, 10 × 1,048,576 bytes, read "10 MB" everywhere).
 * @example formatBytes(10_485_760) // '10 MB'
 */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
}
