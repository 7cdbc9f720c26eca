import { z } from 'zod';
import type { Services } from '../services.ts';
import { transactWithEvents } from '../events/append-events.ts';
import { notFound, refuse } from '../errors/refusal.ts';
import { noNul } from '../inputs/fields.ts';
import { loadConversationView } from './queries.ts';
import type { Rating } from './status-view.ts';
import type { ConversationView } from './views.ts';

/** Longest comment a rating may carry, in characters (code points, what the column counts). */
export const RATING_COMMENT_MAX = 1000;

/**
 * The visitor's optional words with a rating: trimmed; empty clears the comment. Bounded
 * before the trim too, so a megabyte of spaces is refused, not trimmed.
 */
export const ratingComment = z
  .string()
  .max(RATING_COMMENT_MAX * 4, `at most ${RATING_COMMENT_MAX} characters`)
  .refine(noNul, 'must not contain NUL characters')
  .transform((s) => s.trim())
  .pipe(z.string().refine((s) => Array.from(s).length <= RATING_COMMENT_MAX, `at most ${RATING_COMMENT_MAX} characters`));

/** 1: it helped; -1: it did not. */
export const rating = z.union([z.literal(1), z.literal(-1)]);

/**
 * The visitor rates their own conversation after a person from the team resolved it: "Did this
 * help?" 👍 (1) or 👎 (-1), with an optional comment. Stores `rating`, `ratingComment` and
 * `ratedAt` (not `updatedAt`: a rating is not activity) and emits `conversation.updated`.
 *
 * - only the visitor's own conversation: another's (or none) is NOT_FOUND, indistinguishably;
 * - only while it is resolved: CONFLICT `not_resolved` otherwise (a visitor's message reopens it);
 * - only when a person answered in it (an operator message): CONFLICT `no_person` otherwise,
 *   since the rating is of the team's help, not the assistant's;
 * - while it stays resolved the visitor may change their rating and comment: a misclick is
 *   mended, and the comment can follow the thumb. `comment` omitted keeps the one given with
 *   this resolution's rating; a rating of an earlier resolution (reopened and resolved again)
 *   is replaced whole, since the conversation keeps one rating: the latest.
 * @example await rateConversation(services, { visitorId, conversationId, rating: 1, comment: 'Quick and kind' })
 */
export async function rateConversation(
  s: Pick<Services, 'db' | 'bus'>,
  q: { visitorId: string; conversationId: string; rating: Rating; comment?: string },
): Promise<ConversationView> {
  return transactWithEvents(s.db, s.bus, async (tx, emit) => {
    const [row] = await tx.$queryRaw<{ status: string; answered: boolean }[]>`
      SELECT c.status::text AS status,
        EXISTS (SELECT 1 FROM "Message" m WHERE m."conversationId" = c.id AND m.role = 'operator') AS answered
      FROM "Conversation" c
      WHERE c.id = ${q.conversationId}::uuid AND c."visitorId" = ${q.visitorId}::uuid
      FOR UPDATE OF c`;
    if (!row) throw notFound('conversation');
    if (row.status !== 'resolved') throw refuse('conflict', 'not_resolved', 'Only a resolved conversation can be rated.');
    if (!row.answered) throw refuse('conflict', 'no_person', 'Only a conversation a person from the team answered can be rated.');
    const given = q.comment !== undefined;
    const comment = q.comment ? q.comment : null;
    await tx.$executeRaw`
      -- never before the resolution it rates, whatever the clocks that stamped the two
      UPDATE "Conversation" SET rating = ${q.rating}::smallint, "ratedAt" = GREATEST(now(), "resolvedAt"),
        "ratingComment" = CASE
          WHEN ${given} THEN ${comment}
          WHEN "ratedAt" >= "resolvedAt" THEN "ratingComment"
          ELSE NULL
        END
      WHERE id = ${q.conversationId}::uuid`;
    const conversation = await loadConversationView(tx, q.conversationId);
    emit(q.visitorId, { type: 'conversation.updated', conversationId: q.conversationId, conversation });
    return conversation;
  });
}
