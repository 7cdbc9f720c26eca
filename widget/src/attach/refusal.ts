import { ATTACHMENT_KINDS, type AttachmentKind, type UploadRefusalCode } from '../../../api/src/shared/attachment-kinds.ts';
import { lang } from '../i18n/i18n.ts';
import { fileSize } from './file-size.ts';
import { at } from './strings.ts';

/**
 * Why a file cannot go with a message: a refusal's code as the server answers it, or the widget's
 * own check (`too_many`, before any upload), or `failed` (the upload broke off: network, server).
 * Kept as data and worded at render time, so it follows a change of language.
 */
export interface Refusal {
  code: UploadRefusalCode | 'too_many' | 'failed';
  /** the file's size, for `file_too_large` (the visitor's copy of it: the server only says the limit) */
  size?: number;
  /** the limit passed: per file, or per message */
  limitBytes?: number;
  /** what the file is, when known (`SVG`, `MP4`) */
  detected?: string;
  /** that is an image format ("SVG images aren't accepted") */
  image?: boolean;
  /** the most files one message carries, for `too_many` */
  perMessage?: number;
}

/** The site's kinds as a list in the visitor's language: "PNG, JPEG, WebP, GIF, PDF, or text". */
function kindList(kinds: readonly AttachmentKind[]): string {
  const labels = kinds.map((k) => (k === 'text' ? at().text : ATTACHMENT_KINDS[k].label));
  return new Intl.ListFormat(lang, { type: 'disjunction' }).format(labels);
}

/**
 * The sentence that says why `name` cannot go, in the widget's language.
 *
 * @example refusalText('video.mp4', { code: 'file_too_large', size: 50_331_648, limitBytes: 10_485_760 }, kinds)
 * // 'video.mp4 is 48 MB; files can be up to 10 MB.'
 */
export function refusalText(name: string, r: Refusal, kinds: readonly AttachmentKind[]): string {
  const s = at();
  const limit = fileSize(r.limitBytes ?? 0);
  switch (r.code) {
    case 'file_too_large':
      return s.tooLarge(name, fileSize(r.size ?? 0), limit);
    case 'message_files_too_large':
      return s.messageTooLarge(name, limit);
    case 'too_many':
      return s.tooMany(name, r.perMessage ?? 0);
    case 'file_type_refused': {
      const why = r.detected ? (r.image ? s.images(r.detected) : s.files(r.detected)) : s.thisType;
      return `${s.typeRefused(name, why)}${kinds.length ? ` ${s.canAttach(kindList(kinds))}` : ''}`;
    }
    case 'file_damaged':
      return s.damaged(name);
    case 'file_empty':
      return s.empty(name);
    case 'attachments_off':
      return s.off(name);
    default:
      return s.failed(name);
  }
}
