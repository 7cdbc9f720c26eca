import { z } from 'zod';
import { Prisma } from '../db/client.ts';
import type { Services } from '../services.ts';
import { siteScopeSql, type SiteScope } from '../operators/site-access.ts';
import { teamChange } from './team-change.ts';

/** The longest snooze: beyond it, resolve the conversation instead. */
export const SNOOZE_MAX_DAYS = 90;

/**
 * The team's status change, as the console asks it:
 * - `resolved`: done (a visitor's next message reopens it; the visitor may rate it);
 * - `snoozed` until a time: out of "Mine" and "Unassigned" until then, then open again;
 * - `open`: back in the queue.
 */
export const statusChange = z.discriminatedUnion('status', [
  z.strictObject({ status: z.literal('open') }),
  z.strictObject({ status: z.literal('resolved') }),
  z.strictObject({
    status: z.literal('snoozed'),
    until: z.iso.datetime({ offset: true }).refine((s) => {
      const t = Date.parse(s);
      return t > Date.now() && t <= Date.now() + SNOOZE_MAX_DAYS * 86_400_000;
    }, `must be in the future, at most ${SNOOZE_MAX_DAYS} days away`),
  }),
]);

export type StatusChange = z.infer<typeof statusChange>;

/**
 * Sets the status of a conversation of the caller's sites; false when it is not in their scope.
 * Resolving also ends its wait for a person (someone dealt with it) and records `resolvedAt`
 * for the resolution time; a conversation resolved twice keeps the later time.
 */
export async function setConversationStatus(
  s: Pick<Services, 'db' | 'bus'>,
  input: { conversationId: string; change: StatusChange; sites: SiteScope },
): Promise<boolean> {
  const { change } = input;
  const until = change.status === 'snoozed' ? new Date(change.until) : null;
  return teamChange(s, input.conversationId, async (tx) => {
    const [row] = await tx.$queryRaw<{ visitorId: string }[]>`
      UPDATE "Conversation" SET status = ${change.status}::"ConversationStatus", "snoozedUntil" = ${until},
        "resolvedAt" = CASE WHEN ${change.status} = 'resolved' THEN now() ELSE "resolvedAt" END,
        "waitingSince" = CASE WHEN ${change.status} = 'resolved' THEN NULL ELSE "waitingSince" END
      WHERE id = ${input.conversationId}::uuid AND ${siteScopeSql(input.sites, Prisma.sql`"siteId"`)}
      RETURNING "visitorId"`;
    return row?.visitorId ?? null;
  });
}
