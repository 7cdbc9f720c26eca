import type { Db } from '../db/client.ts';
import { checkBudget } from './budget.ts';
import { countRefusal } from './refusals.ts';
import { lockVisitor } from './target-conversation.ts';

/** How often each worker looks for silent conversations (the check-in's delay is in minutes: a few seconds late is fine). */
export const CHECK_IN_EVERY_MS = 30_000;

/** Most check-ins one pass creates; the rest wait for the next pass (oldest silence first). */
const PASS_MAX = 100;

/** A silent conversation a check-in may be due for. */
interface Candidate {
  id: string;
  siteId: string;
  visitorId: string;
  lastAssistantAt: Date;
  perDay: number;
}

/**
 * The proactive check-in scheduler: for sites with `checkInAfterMinutes`, conversations whose
 * latest reply is between N minutes and 24 hours old, whose newest message (notices aside) is
 * that completed reply (an assistant reply, not unsolicited, not failed: so the visitor has been
 * silent since), and that left something open (an open input request, an open todo, or a reply
 * ending in a question mark), not held by an operator nor waiting for a person, and with no
 * check-in requested since that reply. Each gets a check_in ProactiveRequest: `pending` when the
 * budget allows it now (a run writes it), else `refused` with the reason (and counted), so the
 * same silence is never counted twice. Durable: derived from rows only, so any worker may run it
 * after any restart; two at once serialize on the visitor's row lock and the re-check under it.
 * Returns the conversations with a new pending check-in (wake the workers for them).
 */
export async function scheduleCheckIns(db: Db): Promise<string[]> {
  const candidates = await db.$queryRaw<Candidate[]>`
    SELECT c.id, c."siteId", c."visitorId", c."lastAssistantAt", s."unsolicitedPerDay" AS "perDay"
    FROM "Conversation" c
    JOIN "Site" s ON s.id = c."siteId"
    CROSS JOIN LATERAL (
      SELECT m.role, m.provenance, m.error, m.content FROM "Message" m
      WHERE m."conversationId" = c.id AND m.role <> 'notice'
      ORDER BY m.seq DESC LIMIT 1
    ) newest
    WHERE s."checkInAfterMinutes" IS NOT NULL
      AND c."lastAssistantAt" > now() - interval '24 hours'
      AND c."lastAssistantAt" <= now() - make_interval(mins => s."checkInAfterMinutes")
      AND c."heldById" IS NULL AND c."waitingSince" IS NULL
      AND newest.role = 'assistant' AND newest.provenance IS NULL AND newest.error IS NULL
      AND NOT EXISTS (SELECT 1 FROM "Message" u WHERE u."conversationId" = c.id AND u.role = 'user' AND u.state IN ('pending', 'claimed'))
      AND (newest.content ~ '[?？؟][[:space:]"''”’»)*_]*$'
           OR EXISTS (SELECT 1 FROM "InputRequest" q WHERE q."conversationId" = c.id AND q.status = 'open')
           OR EXISTS (SELECT 1 FROM "Todo" t WHERE t."conversationId" = c.id AND t.status = 'open'))
      AND NOT EXISTS (SELECT 1 FROM "ProactiveRequest" p
                      WHERE p."conversationId" = c.id AND p.kind = 'check_in' AND p."createdAt" >= c."lastAssistantAt")
    ORDER BY c."lastAssistantAt"
    LIMIT ${PASS_MAX}`;
  const pending: string[] = [];
  for (const c of candidates) if (await requestCheckIn(db, c)) pending.push(c.id);
  return pending;
}

/** Creates the check-in request (pending or refused) unless another pass just did; true when pending. */
async function requestCheckIn(db: Db, c: Candidate): Promise<boolean> {
  const decided = await db.$transaction(async (tx) => {
    await lockVisitor(tx, c.visitorId);
    const already = await tx.proactiveRequest.count({
      where: { conversationId: c.id, kind: 'check_in', createdAt: { gte: c.lastAssistantAt } },
    });
    if (already > 0) return null;
    const reason = await checkBudget(tx, { visitorId: c.visitorId, conversationId: c.id, perDay: c.perDay });
    await tx.proactiveRequest.create({
      data: {
        siteId: c.siteId,
        visitorId: c.visitorId,
        conversationId: c.id,
        kind: 'check_in',
        ...(reason ? { status: 'refused', reason, decidedAt: new Date() } : {}),
      },
      select: { id: true },
    });
    if (reason) await countRefusal(tx, c.siteId, reason);
    return reason === null;
  });
  return decided === true;
}
