import { KNOWLEDGE_MISS } from '../chat/context/context-sections.ts';
import { asksSomething } from '../knowledge/unanswered.ts';
import { batchItems } from '../chat/context/pending-turn.ts';
import type { ChatRequestMessage, Responder } from './types.ts';
import { demoTitleReply, isTitleRequest } from './demo-title.ts';
import { lastUserText } from './last-user-text.ts';

/**
 * The demo model: deterministic replies that prove which input they answer. A plain last user message
 * gets "You said: <its first 200 characters>"; a batch rendered as an "Unanswered messages" section gets
 * one numbered line per item, so a reply that skipped or merged a message is visible at a glance.
 * @example
 * demoReply('hi') // 'You said: hi'
 * demoReply('Unanswered messages — there are 2 items, cover each one\n1. [10:02] hi\n2. [10:03] price?')
 * // '1. About “hi”: noted.\n2. About “price?”: noted.'
 */
export function demoReply(lastUserText: string): string {
  const items = unansweredItems(lastUserText);
  if (items && items.length > 0) return items.map((item, i) => `${i + 1}. About “${excerpt(item, 60)}”: noted.`).join('\n');
  const said = lastUserText.trim();
  return said === '' ? 'Hello! Say something and I will answer.' : `You said: ${excerpt(said, 200, '')}`;
}

/**
 * The default {@link Responder}: a structured title for the title pass, otherwise
 * {@link demoReply} to the request's last user message.
 */
export const defaultResponder: Responder = (req) => {
  if (isTitleRequest(req.body)) return { text: demoTitleReply(req.body) };
  // A batch that is only the visitor's answer to a question ends with the tool result.
  const answer = trailingToolAnswer(req.body.messages);
  if (answer !== null) return { text: `Thanks, noted: ${excerpt(answer, 200, '')}` };
  const said = lastUserText(req.body.messages);
  // one question, and the site's pages had something on it: quote the best excerpt and cite it
  const quoted = unansweredItems(said) ? null : knowledgeQuote(req.body.messages);
  if (quoted) return { text: quoted };
  // the site has pages, none on this question: it says so instead of guessing
  if (knowledgeMissed(req.body.messages) && asksSomething([said])) return { text: DEMO_DO_NOT_KNOW };
  return { text: demoReply(said) };
};

/** What the demo model says to a question the site's pages do not cover. */
export const DEMO_DO_NOT_KNOW = 'I do not know: nothing on this site’s pages covers that, and I would rather not guess.';

/** Whether the request says the site's knowledge had nothing for this batch. */
const knowledgeMissed = (messages: readonly ChatRequestMessage[] | undefined) =>
  (messages ?? []).some((m) => m.role === 'system' && typeof m.content === 'string' && m.content.includes(KNOWLEDGE_MISS));

/**
 * The demo model's grounded answer: the first excerpt of the request's "Site knowledge" section
 * (the best match), its first sentence quoted and cited as [1]; null when the section is absent.
 * @example knowledgeQuote(messages) // 'From our Shipping page: “Shipping is free for orders above 600 NOK.” [1]'
 */
export function knowledgeQuote(messages: readonly ChatRequestMessage[] | undefined): string | null {
  const system = (messages ?? [])
    .filter((m) => m.role === 'system' && typeof m.content === 'string')
    .map((m) => m.content as string)
    .find((c) => c.includes('## Site knowledge'));
  const first = system && /^\[1\] (.+?) \((https?:\/\/[^\s)]+|[^)\n]+)\)\n"(.*)"$/m.exec(system);
  if (!first) return null;
  const sentence = /^.*?[.!?](?=\s|$)/.exec(first[3]!.replace(/\\"/g, '"'))?.[0] ?? first[3]!;
  const quote = `“${excerpt(sentence, 300, '')}” [1]`;
  // a page is named; the owner's own text (a file, a snippet) is quoted as is
  if (!/^https?:/.test(first[2]!)) return quote;
  return `From our ${first[1]!.split(' — ')[0]!.replace(/ · .*$/, '')} page: ${quote}`;
}

/** The visitor's answer when the request ends with a `tool` result (`{"answer": …}`), else null. */
export function trailingToolAnswer(messages: readonly ChatRequestMessage[] | undefined): string | null {
  const last = Array.isArray(messages) ? messages.at(-1) : undefined;
  if (last?.role !== 'tool' || typeof last.content !== 'string') return null;
  try {
    const parsed = JSON.parse(last.content) as { answer?: unknown };
    return typeof parsed.answer === 'string' ? parsed.answer : last.content;
  } catch {
    return last.content;
  }
}

const LIST_MARKER = /^\s*(?:\d+[.)]|[-*•])\s+/;
// "[Mon 10:42]", "(10:42 am)", "10:42 —", "2026-01-05 10:42:" — the local time each batch item carries.
const TIME_PREFIX =
  /^\s*(?:[[(][^\])\n]*\d{1,2}:\d{2}[^\])\n]*[\])]|(?:\d{4}-\d{2}-\d{2}[ T])?\d{1,2}:\d{2}(?::\d{2})?(?:\s?[ap]\.?m\.?)?(?=[\s—–:-]))\s*(?:[—–:-]\s*)?/i;

/**
 * The items of an "Unanswered messages" section: list-marked or time-stamped lines after the title,
 * continuation lines joined to their item, ending at a heading or at unmarked text after a blank line
 * (or, when no line is marked, every non-empty line after the title).
 * `null` when there is no such section.
 */
export function unansweredItems(text: string): string[] | null {
  // Heed's own layout first (headers and quoted words), which no visitor text can imitate
  const ours = batchItems(text);
  if (ours) return ours.map((item) => item.text.replace(/\s+/g, ' ').trim());
  const lines = text.split(/\r?\n/);
  const title = lines.findIndex((line) => /unanswered messages/i.test(line));
  if (title < 0) return null;
  const items: string[] = [];
  let afterBlank = false;
  for (const line of lines.slice(title + 1)) {
    const marker = LIST_MARKER.exec(line) ?? TIME_PREFIX.exec(line);
    if (marker) items.push(line.slice(marker[0].length));
    else if (line.trim() === '') afterBlank = true;
    else if (items.length > 0 && (afterBlank || /^\s*#/.test(line))) break;
    else if (items.length > 0) items[items.length - 1] += ` ${line.trim()}`;
    if (marker) afterBlank = false;
  }
  // No markers at all: fall back to one item per non-empty line, so an unforeseen layout still counts.
  if (items.length === 0) items.push(...lines.slice(title + 1).filter((line) => line.trim() !== ''));
  return items.map((item) =>
    item
      .replace(TIME_PREFIX, '')
      .replace(/\s+/g, ' ')
      .trim()
      .replace(/^["“'](.*)["”']$/, '$1'),
  );
}

function excerpt(text: string, max: number, ellipsis = '…'): string {
  const points = Array.from(text);
  return points.length <= max ? text : points.slice(0, max).join('') + ellipsis;
}
