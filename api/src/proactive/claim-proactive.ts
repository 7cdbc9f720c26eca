import type { Db } from '../db/client.ts';
import type { Tx } from '../db/types.ts';
import { checkBudget } from './budget.ts';
import { countRefusal, type RefusalReason } from './refusals.ts';

/** What the model is told when it writes an intent's message (a fixed message needs none of it). */
export interface IntentBrief {
  name: string;
  /** the site's instruction for this intent (IntentRule.instruction) */
  instruction: string | null;
  /** the page's data: validated and bounded when the intent fired; shown to the model as data only */
  data: unknown;
}

/** An unsolicited message a run writes (it claimed this request, and no visitor message). */
export interface ClaimedProactive {
  requestId: string;
  kind: 'intent' | 'check_in' | 'server';
  /** the provenance label's words (the intent's label; null for a check-in) */
  label: string | null;
  /** a fixed message: stored as is, without a model call */
  text: string | null;
  /** an intent's name, instruction and data (null for a check-in) */
  intent?: IntentBrief | null;
  /** a check-in: whole minutes since the reply the visitor left unanswered */
  silentMinutes?: number | null;
}

/** A pending request the budget refused at claim time: recorded once the claim rolled back. */
export interface ProactiveRefusal {
  requestId: string;
  siteId: string;
  reason: string;
}

interface RequestRow {
  id: string;
  kind: 'intent' | 'check_in' | 'server';
  name: string | null;
  data: unknown;
  text: string | null;
  createdAt: Date;
}

/**
 * Claims the conversation's oldest pending proactive request for `runId` (or one `claimed` by
 * a run that lost its lease: the claim already retired that run), inside the claim's
 * transaction (under the conversation's row lock), after checking the budget again at this
 * moment and the intent's rule (it may be gone or off since the intent fired); null when none
 * is pending.
 */
export async function claimProactive(
  tx: Tx,
  opts: { conversationId: string; visitorId: string; siteId: string; runId: string },
): Promise<ClaimedProactive | { refused: ProactiveRefusal } | null> {
  const [request] = await tx.$queryRaw<RequestRow[]>`
    SELECT p.id, p.kind::text AS kind, p.name, p.data, p.text, p."createdAt" FROM "ProactiveRequest" p
    WHERE p."conversationId" = ${opts.conversationId}::uuid
      AND (p.status = 'pending' OR (p.status = 'claimed' AND NOT EXISTS (
        SELECT 1 FROM "Run" r WHERE r.id = p."runId" AND r.status IN ('claimed', 'streaming') AND r."leaseUntil" > now())))
    ORDER BY p."createdAt", p.id LIMIT 1
    FOR UPDATE OF p`;
  if (!request) return null;
  const refused = (reason: RefusalReason) => ({ refused: { requestId: request.id, siteId: opts.siteId, reason } });

  const rule =
    request.kind === 'intent' && request.name
      ? await tx.intentRule.findUnique({
          where: { siteId_name: { siteId: opts.siteId, name: request.name } },
          select: { label: true, instruction: true, enabled: true },
        })
      : null;
  if (request.kind === 'intent' && !rule) return refused('unknown_intent');
  if (rule && !rule.enabled) return refused('rule_disabled');

  const site = await tx.site.findUniqueOrThrow({ where: { id: opts.siteId }, select: { unsolicitedPerDay: true } });
  if (request.kind !== 'server') {
    const reason = await checkBudget(tx, { ...opts, requestId: request.id, perDay: site.unsolicitedPerDay });
    if (reason) return refused(reason);
    // The moment passed: the visitor wrote after the request was queued (their message was answered
    // first), so a check-in about their silence, or a nudge about what they did, comes too late.
    if (await visitorWroteSince(tx, opts.visitorId, request.createdAt)) return refused('visitor_wrote');
  }

  await tx.$executeRaw`
    UPDATE "ProactiveRequest" SET status = 'claimed', "runId" = ${opts.runId}::uuid WHERE id = ${request.id}::uuid`;
  await tx.$executeRaw`UPDATE "Run" SET "proactiveId" = ${request.id}::uuid WHERE id = ${opts.runId}::uuid`;
  return {
    requestId: request.id,
    kind: request.kind,
    label: rule?.label ?? null,
    text: request.text,
    intent:
      request.kind === 'intent' ? { name: request.name ?? '', instruction: rule?.instruction ?? null, data: request.data ?? null } : null,
    silentMinutes: request.kind === 'check_in' ? await silentMinutes(tx, opts.conversationId) : null,
  };
}

async function visitorWroteSince(tx: Tx, visitorId: string, since: Date): Promise<boolean> {
  const n = await tx.message.count({ where: { visitorId, role: 'user', createdAt: { gt: since } } });
  return n > 0;
}

async function silentMinutes(tx: Tx, conversationId: string): Promise<number> {
  const [row] = await tx.$queryRaw<{ minutes: number | null }[]>`
    SELECT floor(extract(epoch FROM now() - "lastAssistantAt") / 60)::int AS minutes FROM "Conversation" WHERE id = ${conversationId}::uuid`;
  return Math.max(0, row?.minutes ?? 0);
}

/**
 * Marks a refused request `refused` with its reason and counts the refusal for the console.
 * Only a request still waiting (pending, or claimed by a run that is gone) changes: the WHERE is the rule.
 */
export async function refuseProactive(db: Db, refusal: ProactiveRefusal): Promise<void> {
  await db.$transaction(async (tx) => {
    const n = await tx.$executeRaw`
      UPDATE "ProactiveRequest" SET status = 'refused', reason = ${refusal.reason}, "decidedAt" = now()
      WHERE id = ${refusal.requestId}::uuid AND status IN ('pending', 'claimed')`;
    if (n === 1) await countRefusal(tx, refusal.siteId, refusal.reason as RefusalReason);
  });
}
