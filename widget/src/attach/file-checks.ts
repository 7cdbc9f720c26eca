import { type AttachmentKind, kindOfMime } from '../../../api/src/shared/attachment-kinds.ts';
import type { AttachmentSettings } from '../state/types.ts';
import type { Refusal } from './refusal.ts';

/** File name endings of the kinds, for files the browser gives no type (dropped from some file managers). */
const EXTENSIONS: Record<string, AttachmentKind> = {
  png: 'png',
  jpg: 'jpeg',
  jpeg: 'jpeg',
  webp: 'webp',
  gif: 'gif',
  pdf: 'pdf',
  txt: 'text',
};

const extension = (name: string) => /\.([a-z0-9]{1,8})$/i.exec(name)?.[1]?.toLowerCase();

/** The kind the browser says a file is (its type, else its name's ending); null when it does not say. */
function claimedKind(file: File): AttachmentKind | null {
  const byType = kindOfMime(file.type) ?? (file.type.startsWith('text/') && file.type !== 'text/html' ? 'text' : null);
  return byType ?? (file.type ? null : (EXTENSIONS[extension(file.name) ?? ''] ?? null));
}

/** What to call a file's format in a refusal: its name's ending (`MP4`), else its type's (`SVG` for image/svg+xml). */
function formatLabel(file: File): string | undefined {
  const label = extension(file.name) ?? /\/(?:x-)?([a-z0-9.-]+)/i.exec(file.type)?.[1];
  return label?.toUpperCase();
}

/**
 * The widget's own check of a file before it uploads, from the site's settings, for quick
 * feedback: how many files go with the message already (`queued`), its size, its type. It
 * refuses only what the server surely would: a kind the site does not take, or an image, video,
 * audio or HTML type outside the kinds. A type it cannot tell (no type, an unknown ending, other
 * `application/…`) goes to the server, which decides from the bytes.
 *
 * @example checkFile(file, site.attachments, { count: 1, bytes: 20_000 }) // null: upload it
 */
export function checkFile(file: File, settings: AttachmentSettings, queued: { count: number; bytes: number }): Refusal | null {
  if (queued.count >= settings.perMessage) return { code: 'too_many', perMessage: settings.perMessage };
  if (file.size === 0) return { code: 'file_empty' };
  if (file.size > settings.maxBytes) return { code: 'file_too_large', size: file.size, limitBytes: settings.maxBytes };
  const kind = claimedKind(file);
  const image = file.type.startsWith('image/');
  if (kind ? !settings.kinds.includes(kind) : /^(image|video|audio)\/|^text\/html/.test(file.type))
    return { code: 'file_type_refused', detected: formatLabel(file), image };
  if (queued.bytes + file.size > settings.messageMaxBytes) return { code: 'message_files_too_large', limitBytes: settings.messageMaxBytes };
  return null;
}
