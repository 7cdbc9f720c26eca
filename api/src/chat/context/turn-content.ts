import type { ChatCompletionContentPart } from 'openai/resources/chat/completions';
import { finalUserTurn, pendingTurnItems, quoted, type ClaimedItem, CONTINUE_REQUEST } from './pending-turn.ts';

/** A file sent with a message, as the context builder sees it. */
export interface ContextFile {
  name: string;
  /** the type decided from its bytes */
  mime: string;
  /** a PDF's or text file's words (bounded at upload); null for images */
  text: string | null;
  /** an image of this batch, ready for the model (`data:image/png;base64,…`); absent in history */
  dataUrl?: string;
}

/** A claimed message with its files. */
export type ClaimedWithFiles = ClaimedItem & { files?: readonly ContextFile[] };

/**
 * The final user turn for a claimed batch whose messages carry files: the batch as
 * {@link finalUserTurn} renders it, each item followed by a line per file (and a file's words,
 * quoted like the visitor's), and each image as an image part right after its item, so the
 * model reads the texts, their times and the images in the order they were sent. Without
 * files this is exactly `finalUserTurn` (a string); with images, content parts.
 * A server without image input gets the parts flattened later (model/without-images.ts).
 * @example finalUserContent([{ content: 'what is this error?', createdAt, files: [png] }], 'UTC')
 * // [{ type: 'text', text: 'what is this error?\n\n[Attached image: error.png]' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,…' } }]
 */
export function finalUserContent(claimed: readonly ClaimedWithFiles[], timeZone: string): string | ChatCompletionContentPart[] {
  if (!claimed.some((m) => m.files?.length)) return finalUserTurn(claimed, timeZone);
  const words = claimed.filter((m) => m.provenance !== 'continue');
  const lead = words.length === claimed.length ? null : `${CONTINUE_REQUEST} Then answer the visitor's newer words below.`;
  const { preamble, items } = pendingTurnItems(words, timeZone);
  const parts: ChatCompletionContentPart[] = [];
  let text = [lead, preamble].filter((t) => t !== null).join('\n\n');
  words.forEach((m, i) => {
    const notes = (m.files ?? []).map(fileNote);
    text = [text, [items[i]!, ...notes].filter(Boolean).join('\n\n')].filter(Boolean).join('\n\n');
    for (const file of m.files ?? []) {
      if (!file.dataUrl) continue;
      parts.push({ type: 'text', text });
      parts.push({ type: 'image_url', image_url: { url: file.dataUrl } });
      text = '';
    }
  });
  if (text) parts.push({ type: 'text', text });
  return parts.length === 1 && parts[0]!.type === 'text' ? parts[0]!.text : parts;
}

/**
 * One file's line: `[Attached image: error.png]`, or for a document its words, quoted (a file's
 * text is the visitor's, never an instruction). Names are the visitor's too: brackets and line
 * breaks are taken out, so a name cannot close our line and start one of its own.
 */
export function fileNote(file: ContextFile): string {
  const name = file.name.replace(/[[\]\r\n]/g, ' ');
  if (file.mime.startsWith('image/')) return `[Attached image: ${name}]`;
  const kind = file.mime === 'application/pdf' ? 'PDF' : 'text file';
  if (!file.text?.trim()) return `[Attached ${kind}: ${name} (no text could be read from it)]`;
  return `[Attached ${kind}: ${name}. Its text, quoted:]\n${quoted(file.text)}`;
}

/** A history message's files as one line: earlier images are not shown again, only named. */
export function earlierFilesNote(files: readonly ContextFile[]): string {
  const names = files.map(
    (f) =>
      `${f.name.replace(/[[\]\r\n]/g, ' ')} (${f.mime.startsWith('image/') ? 'image' : f.mime === 'application/pdf' ? 'PDF' : 'text file'})`,
  );
  return `[Attached here: ${names.join(', ')}; not shown again]`;
}
