import { badgeOf, type AttentionCounts } from '../../../api/src/shared/attention.ts';

/** The sentence a screen reader hears for a badge, e.g. "2 new responses"; '' when idle. */
export function badgeText(counts: AttentionCounts): string {
  const badge = badgeOf(counts);
  if (!badge) return '';
  const n = badge.count;
  if (badge.state === 'live') return n === 1 ? '1 live chat' : `${n} live chats`;
  if (badge.state === 'input_needed') return n === 1 ? '1 chat needs your input' : `${n} chats need your input`;
  return n === 1 ? '1 new response' : `${n} new responses`;
}
