import { createHash } from 'node:crypto';
import { ATTACHMENT_KINDS, type AttachmentKind, type UploadRefusalCode } from '../../shared/attachment-kinds.ts';
import { cleanFileName } from './clean-name.ts';
import { cleanImage } from './clean-image.ts';
import { detectKind } from './detect-kind.ts';
import { extractText } from './extract-text.ts';

export type Inspected =
  | {
      ok: true;
      kind: AttachmentKind;
      mime: string;
      name: string;
      /** what to store: an image cleaned of its metadata, any other file as it came */
      bytes: Buffer;
      width: number | null;
      height: number | null;
      /** a PDF's or text file's words, bounded ('' for a PDF without a text layer); null for images */
      text: string | null;
      /** of `bytes` as stored, hex */
      sha256: string;
    }
  | { ok: false; code: UploadRefusalCode; message: string; detected?: string; limitBytes?: number };

/**
 * Everything an uploaded file goes through before it is stored: refused when empty, when its
 * bytes are not one of the `allowed` kinds (SVG and HTML never are), or when it is damaged; an
 * image comes back cleaned of its metadata and upright, a PDF or text file with its words, and
 * the name cleaned to match what the file is. Size limits are the caller's (they are per site).
 * @example await inspectUpload({ bytes, name: 'shot.jpg', allowed: ['png', 'jpeg'] }) // { ok: true, kind: 'png', name: 'shot.png', … }
 */
export async function inspectUpload(input: { bytes: Buffer; name: string; allowed: readonly AttachmentKind[] }): Promise<Inspected> {
  const { bytes, allowed } = input;
  if (bytes.length === 0) return { ok: false, code: 'file_empty', message: 'This file is empty.' };
  if (allowed.length === 0) return { ok: false, code: 'attachments_off', message: 'Files cannot be attached here.' };
  const found = await detectKind(bytes);
  if (!found.ok || !allowed.includes(found.kind)) {
    const detected = found.ok ? ATTACHMENT_KINDS[found.kind].label : found.detected;
    return { ok: false, code: 'file_type_refused', message: `${onlyAllowed(allowed)}; ${whatItIs(detected)}.`, detected };
  }
  const { kind } = found;
  let stored = bytes;
  let width: number | null = null;
  let height: number | null = null;
  let text: string | null = null;
  if (kind === 'pdf' || kind === 'text') {
    const read = await extractText(bytes, kind);
    if (!read.ok) return read;
    text = read.text;
  } else {
    const image = await cleanImage(bytes, kind);
    if (!image.ok) return image;
    ({ bytes: stored, width, height } = image);
  }
  return {
    ok: true,
    kind,
    mime: ATTACHMENT_KINDS[kind].mime,
    name: cleanFileName(input.name, kind),
    bytes: stored,
    width,
    height,
    text,
    sha256: createHash('sha256').update(stored).digest('hex'),
  };
}

/** "Only PNG, JPEG, WebP, GIF, PDF and plain text files can be attached" */
function onlyAllowed(allowed: readonly AttachmentKind[]): string {
  const labels = allowed.map((kind) => ATTACHMENT_KINDS[kind].label);
  const list = labels.length > 1 ? `${labels.slice(0, -1).join(', ')} and ${labels.at(-1)}` : labels[0];
  return `Only ${list} files can be attached`;
}

/** "this is an SVG image", "this is a file of type ZIP" */
function whatItIs(detected: string): string {
  if (detected === 'unknown') return 'the type of this file could not be recognised';
  const known: Record<string, string> = {
    SVG: 'an SVG image',
    HTML: 'an HTML page',
    ...Object.fromEntries(Object.values(ATTACHMENT_KINDS).map(({ label, image }) => [label, `a ${label} ${image ? 'image' : 'file'}`])),
  };
  return `this is ${known[detected] ?? `a file of type ${detected}`}`;
}
