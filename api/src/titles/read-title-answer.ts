import { titleAnswerSchema, type TitleAnswer } from './title-prompt.ts';
import { wellFormed } from '../db/well-formed.ts';

/** The model's title answer read, or why it could not be (a reason for the log, never the answer). */
export type ReadTitleAnswer = { ok: true; answer: TitleAnswer } | { ok: false; reason: string };

/** A one-line prose answer longer than this is not a title. */
const PROSE_MAX = 120;

/**
 * Reads a title answer the ways models write it: plain JSON, JSON in a Markdown fence, a JSON
 * object inside prose; with `prose` (a server that takes no structured output), also a bare
 * one-line title ("Title: …" labels and quotes are left to normalization), taken as changed.
 * @example readTitleAnswer('```json\n{"title":"Refunds","changed":true}\n```').ok === true
 */
export function readTitleAnswer(content: string | null, opts: { prose?: boolean } = {}): ReadTitleAnswer {
  const text = content?.trim() ?? '';
  if (text === '') return { ok: false, reason: 'empty answer' };
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(text)?.[1];
  const braces = text.indexOf('{') >= 0 ? text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1) : undefined;
  let shapeError: string | null = null;
  for (const candidate of [text, fenced, braces]) {
    const json = candidate === undefined ? undefined : parseJson(candidate);
    if (json === undefined) continue;
    const answer = titleAnswerSchema.safeParse(json);
    if (answer.success) return { ok: true, answer: answer.data };
    shapeError = `JSON not of the title shape (${answer.error.issues.map((i) => i.path.join('.') || i.code).join(', ')})`;
  }
  if (shapeError) return { ok: false, reason: shapeError };
  if (!opts.prose) return { ok: false, reason: 'not JSON' };
  if (text.includes('\n') || text.length > PROSE_MAX) return { ok: false, reason: 'prose longer than one short line' };
  return { ok: true, answer: { title: text, changed: true } };
}

function parseJson(text: string): unknown {
  try {
    return wellFormed(JSON.parse(text));
  } catch {
    return undefined;
  }
}
