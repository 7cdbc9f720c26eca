import { ATTACHMENT_KINDS, ATTACHMENTS_PER_MESSAGE, formatBytes, kindOfMime } from '../../../api/src/shared/attachment-kinds.ts';
import type { AttachmentView } from './contract.ts';
import type { UploadRefusal } from './upload.ts';

/**
 * What a file is, in words, from the type decided from its bytes.
 * @example typeLabel('image/png') // 'PNG image'
 * @example typeLabel('application/pdf') // 'PDF'
 */
export function typeLabel(mime: string): string {
  const kind = kindOfMime(mime);
  if (kind === 'text') return 'Plain text';
  if (kind) return ATTACHMENT_KINDS[kind].image ? `${ATTACHMENT_KINDS[kind].label} image` : ATTACHMENT_KINDS[kind].label;
  return mime.startsWith('image/') ? 'Image' : 'File';
}

/**
 * A file's type and size on one line, as a link's or a thumbnail's facts.
 * @example attachmentFacts({ mime: 'application/pdf', bytes: 340_000 }) // 'PDF · 340 KB'
 */
export const attachmentFacts = (a: Pick<AttachmentView, 'mime' | 'bytes'>): string => `${typeLabel(a.mime)} · ${formatBytes(a.bytes)}`;

/** Why a file of a private conversation shows no name and no link. */
export const WITHHELD = 'withheld: the visitor made this conversation private';

/**
 * Why a file was not attached, as one sentence that names it: the server's code with its
 * figures (the site's limit, the type found in the bytes), never its English message alone.
 * @example refusalSentence('scan.tiff', new UploadRefusal('file_type_refused', 415, { detected: 'TIFF' }))
 *   // '“scan.tiff” was not attached: this site does not take TIFF files.'
 */
export function refusalSentence(name: string, r: Pick<UploadRefusal, 'code' | 'extra' | 'message'>): string {
  const file = `“${name}” was not attached`;
  const limit = r.extra.limitBytes === undefined ? null : formatBytes(r.extra.limitBytes);
  switch (r.code) {
    case 'file_too_large':
      return limit ? `${file}: it is larger than the ${limit} this site takes in one file.` : `${file}: it is larger than this site takes.`;
    case 'message_files_too_large':
      return limit
        ? `${file}: with it, the reply’s files would pass the ${limit} this site takes in one message.`
        : `${file}: with it, the reply’s files would pass what this site takes in one message.`;
    case 'file_type_refused':
      return `${file}: this site does not take ${r.extra.detected ? `${r.extra.detected} files` : 'files of this type'}.`;
    case 'file_damaged':
      return `${file}: the file is damaged (its bytes do not hold a whole image or document).`;
    case 'file_empty':
      return `${file}: the file is empty.`;
    case 'attachments_off':
      return `${file}: this site takes no attachments. An owner can turn them on in the site’s settings.`;
    case 'rate_limited':
      return `${file}: too many uploads at once. Try again${r.extra.retryAfterS ? ` in ${r.extra.retryAfterS} s` : ' in a moment'}.`;
    case 'not_found':
      return `${file}: this conversation is no longer there.`;
    // an upload without a session (the upload route names it as for a visitor's lost token)
    case 'visitor_token_invalid':
      return `${file}: your session ended. Sign in again.`;
    case 'network':
      return `${file}: the server cannot be reached. Check the connection and try again.`;
    default:
      return `${file}: ${r.message.replace(/\.?$/, '.')}`;
  }
}

/**
 * More files than one reply carries.
 * @example tooMany('c.png') // '“c.png” was not attached: at most 10 files go with one reply.'
 */
export const tooMany = (name: string): string => `“${name}” was not attached: at most ${ATTACHMENTS_PER_MESSAGE} files go with one reply.`;
