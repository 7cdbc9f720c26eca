import { Prisma } from '../../db/client.ts';
import type { BucketPlan } from './range.ts';

/**
 * One row per conversation a person from the team had a hand in during the plan's range: its
 * first response, its resolution or its rating falls in the range. Columns:
 *
 * - `responded_at`, `responder`: the conversation's first operator message (its time and who
 *   wrote it). A conversation counts once, by its first response, however many times people
 *   came back to it;
 * - `waiting_from`: when the visitor started waiting for a person, the start of both figures:
 *   1. the first `handoff_requested` notice (the assistant asked for a person) before that first
 *      operator message (or before the resolution, for a conversation nobody wrote in);
 *   2. else, for a conversation taken over without one, the first visitor message since the
 *      assistant's last reply before the first operator message: the words that waited for the
 *      person, whether written before the takeover or after it (a reply is an assistant message
 *      that is neither failed nor unsolicited; the visitor's "Continue" request is no message);
 *   3. else none: the operator spoke first, nobody was waiting, and the conversation counts in
 *      neither time (a rating still counts);
 * - `siteId`, `assigneeId`, `resolvedAt`, `rating`, `ratedAt`: the conversation's own columns.
 *
 * Order is by `seq`, the messages' total order, never by time (two rows may share a millisecond).
 * Candidates are found from operator messages in the range through Message(state, conversationId,
 * createdAt) (operator messages have no outbox state), and from resolutions and ratings by a
 * scan of Conversation (neither column is indexed; the team's conversations are a small share
 * of them all). Each candidate's messages are read by Message(conversationId, seq).
 */
export function personTimesSql(plan: BucketPlan, ofSite: (alias: string) => Prisma.Sql): Prisma.Sql {
  const start = Prisma.sql`${plan.start.toISOString()}::timestamptz`;
  const end = Prisma.sql`${plan.end.toISOString()}::timestamptz`;
  return Prisma.sql`
    SELECT c.id, c."siteId", c."assigneeId", c."resolvedAt", c.rating, c."ratedAt",
           o.at AS responded_at, o."operatorId" AS responder,
           coalesce(h.at, w.at) AS waiting_from
    FROM (
      SELECT m."conversationId" AS id FROM "Message" m
      WHERE m.state IS NULL AND m.role = 'operator' AND m."createdAt" >= ${start} AND m."createdAt" < ${end}
      UNION
      SELECT c.id FROM "Conversation" c
      WHERE (c."resolvedAt" >= ${start} AND c."resolvedAt" < ${end}) OR (c."ratedAt" >= ${start} AND c."ratedAt" < ${end})
    ) k
    JOIN "Conversation" c ON c.id = k.id ${ofSite('c')}
    LEFT JOIN LATERAL (
      SELECT m."createdAt" AS at, m.seq, m."operatorId" FROM "Message" m
      WHERE m."conversationId" = c.id AND m.role = 'operator'
      ORDER BY m.seq LIMIT 1
    ) o ON true
    LEFT JOIN LATERAL (
      SELECT min(m."createdAt") AS at FROM "Message" m
      WHERE m."conversationId" = c.id AND m.role = 'notice' AND m.provenance = 'handoff_requested'
        AND (m.seq < o.seq OR (o.seq IS NULL AND m."createdAt" <= c."resolvedAt"))
    ) h ON true
    LEFT JOIN LATERAL (
      SELECT min(u."createdAt") AS at FROM "Message" u
      WHERE u."conversationId" = c.id AND u.role = 'user' AND u.provenance IS NULL AND u.seq < o.seq
        AND u.seq > coalesce((
          SELECT max(a.seq) FROM "Message" a
          WHERE a."conversationId" = c.id AND a.role = 'assistant' AND a.error IS NULL AND a.provenance IS NULL AND a.seq < o.seq
        ), 0)
    ) w ON true`;
}
