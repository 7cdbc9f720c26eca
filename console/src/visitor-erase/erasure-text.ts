import type { ConfirmQuestion } from '../confirm-dialog/confirm-dialog.component.ts';
import type { ErasureResult, VisitorErasure } from '../state/contract.ts';
import { counted } from '../state/plural.ts';

/**
 * The rows an operator recognises, in words: "3 conversations, 41 messages and 2 files".
 * Runs, events and the like go too, but nobody counts those when deciding.
 */
export function erasedCounts(c: { conversations?: number; messages?: number; attachments?: number }): string {
  return `${counted(c.conversations ?? 0, 'conversation')}, ${counted(c.messages ?? 0, 'message')} and ${counted(c.attachments ?? 0, 'file')}`;
}

/**
 * The confirmation of an erasure, saying what goes (the counts), that it is for good, what the
 * visitor notices and what stays. An identified user is named by the id the site signed, with
 * every browser they used: the operator may expect only this one to go.
 *
 * @example erasureQuestion({ identified: false, externalId: null, visitorId: 'v', counts }).text
 *   // 'Delete everything Heed holds about this visitor: 3 conversations, 41 messages and 2 files, for good. …'
 */
export function erasureQuestion(e: VisitorErasure): ConfirmQuestion {
  const who = e.identified ? `user ${e.externalId ?? 'of this conversation'}, in every browser they used` : 'this visitor';
  return {
    title: 'Delete this visitor’s data?',
    text:
      `Delete everything Heed holds about ${who}: ${erasedCounts(e.counts)}, for good. ` +
      'Their chat on the site starts afresh. A record that an erasure happened (when, by whom, how many rows) stays.',
    confirm: 'Delete visitor data',
  };
}

/** What the live region says once the erasure is done. */
export function erasedText(r: ErasureResult): string {
  return `Visitor data deleted: ${erasedCounts(r.counts)}. A record of the erasure stays.`;
}
