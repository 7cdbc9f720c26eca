import type { ChatRequestMessage } from './types.ts';

/** The text of the last `user` message; text parts of multi-part content are joined. */
export function lastUserText(messages: readonly ChatRequestMessage[] | undefined): string {
  const last = Array.isArray(messages) ? messages.findLast((m) => m?.role === 'user') : undefined;
  const content = last?.content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.flatMap((part) => (part?.type === 'text' && typeof part.text === 'string' ? [part.text] : [])).join('\n');
}
