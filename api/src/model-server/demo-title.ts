import type { ChatRequestBody } from './types.ts';
import { lastUserText } from './last-user-text.ts';

const STOPWORDS = new Set(
  "a an and are as at be but by can could do does did for from had has have hello hi how i i'm is it its me my of on or our please so that the their there this to us was we what when where which who why will with would you your yes no ok thanks thank hey".split(
    ' ',
  ),
);

/**
 * The demo model's answer to a structured title request (`conversation_title`): keep a
 * current title; otherwise up to four content words of the visitor's first message.
 * Deterministic, so the offline demo shows titles improving without a real model.
 * @example demoTitle({ current_title: null, first_messages: ['Do you ship to Norway?'] }) // 'Ship Norway'
 */
export function demoTitle(data: { current_title?: string | null; first_messages?: string[] }): { title: string; changed: boolean } {
  if (data.current_title) return { title: data.current_title, changed: false };
  const words = (data.first_messages?.[0] ?? '')
    .split(/[^\p{L}\p{N}'-]+/u)
    .filter((w) => w.length > 1 && !STOPWORDS.has(w.toLowerCase()))
    .slice(0, 4)
    .map((w) => w[0]!.toUpperCase() + w.slice(1));
  return { title: words.length > 0 ? words.join(' ') : 'New conversation', changed: true };
}

/** True for the title pass's structured-output requests. */
export function isTitleRequest(body: ChatRequestBody): boolean {
  const format = body.response_format as { type?: string; json_schema?: { name?: string } } | undefined;
  return format?.type === 'json_schema' && format.json_schema?.name === 'conversation_title';
}

/** The JSON text the demo model answers to a title request. */
export function demoTitleReply(body: ChatRequestBody): string {
  let data: Parameters<typeof demoTitle>[0] = {};
  try {
    data = JSON.parse(lastUserText(body.messages)) as typeof data;
  } catch {
    // not the JSON the title pass sends: title from nothing
  }
  return JSON.stringify(demoTitle(data));
}
