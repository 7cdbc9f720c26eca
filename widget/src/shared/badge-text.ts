import { badgeOf, type AttentionCounts } from '../../../api/src/shared/attention.ts';
import { t } from '../i18n/i18n.ts';

/** The sentence a screen reader hears for a badge, e.g. "2 new responses" (in the widget's language); '' when idle. */
export function badgeText(counts: AttentionCounts): string {
  const badge = badgeOf(counts);
  if (!badge) return '';
  const n = badge.count;
  return (badge.state === 'live' ? t.liveChats : badge.state === 'input_needed' ? t.needInput : t.newResponses)(n);
}
