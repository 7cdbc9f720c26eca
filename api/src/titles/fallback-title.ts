import { truncateOnWord } from '../shared/excerpt.ts';
import { TITLE_MAX } from '../shared/title-limits.ts';

/**
 * The immediate title of a conversation: its first message, whitespace collapsed, cut on a
 * word boundary to at most TITLE_MAX characters. Navigation never waits for a model.
 * @example fallbackTitle('  How do I\nreset my password?  ') // 'How do I reset my password?'
 */
export function fallbackTitle(firstMessage: string): string {
  return truncateOnWord(firstMessage.replace(/\s+/g, ' ').trim(), TITLE_MAX);
}
