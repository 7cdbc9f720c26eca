import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';

/** Shortest run of words taken as an echo of the conversation (two shared words are ordinary speech). */
const MIN_RUN = 3;
/** A single word this long shared with the conversation is blanked too (a code, a secret, an address). */
const LONG_WORD = 10;

/**
 * `message` with every passage it quotes from the conversation `sent` blanked as `…`: runs of
 * three or more words in the conversation's order, and long single words it contains. What is
 * left is the provider's own sentence, which is what an operator needs.
 * @example withoutEcho('Invalid prompt: my card is 4242', [{ role: 'user', content: 'my card is 4242' }]) === 'Invalid prompt: …'
 */
export function withoutEcho(message: string, sent: readonly ChatCompletionMessageParam[]): string {
  const haystack = ` ${sent.flatMap((m) => words(textOf(m.content))).join(' ')} `;
  if (haystack.trim() === '') return message;
  const tokens = message.split(/\s+/).filter(Boolean);
  const keys = tokens.map(normal);
  const out: string[] = [];
  for (let i = 0; i < tokens.length; ) {
    let end = i;
    while (end < tokens.length && keys[end] !== '' && haystack.includes(` ${keys.slice(i, end + 1).join(' ')} `)) end++;
    const long = end === i + 1 && keys[i]!.length >= LONG_WORD;
    if (end - i >= MIN_RUN || long) {
      if (out.at(-1) !== '…') out.push('…');
      i = end;
    } else {
      out.push(tokens[i]!);
      i++;
    }
  }
  return out.join(' ');
}

const normal = (word: string) => word.toLowerCase().replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
const words = (text: string) => text.split(/\s+/).map(normal).filter(Boolean);

function textOf(content: ChatCompletionMessageParam['content']): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => ('text' in part && typeof part.text === 'string' ? part.text : '')).join(' ');
}
