import { randomUUID } from 'node:crypto';
import { Prisma, type Db } from '../../db/client.ts';
import { pendingDueAtSql, type BatchTiming } from './due-batches.ts';
import { rawSqlOf, type RawDb, type RawSql } from '../../db/raw-sql.ts';
import type { EventBus } from '../../events/event-bus.ts';
import { transactRawWithEvents, transactWithEvents } from '../../events/append-events.ts';
import { conversationViewSql, loadConversationView, viewOfRow, type ViewRow } from '../../conversations/queries.ts';
import { claimProactive, refuseProactive, type ClaimedProactive, type ProactiveRefusal } from '../../proactive/claim-proactive.ts';

export interface ClaimedBatch {
  runId: string;
  conversationId: string;
  visitorId: string;
  /** the conversation's site: whose spend the run counts in */
  siteId: string;
  fence: number;
  /** ids of the claimed messages, oldest first (none when the run writes an unsolicited message) */
  messageIds: string[];
  /** set when the run writes an unsolicited message instead of answering the visitor */
  proactive: ClaimedProactive | null;
  /** highest message `seq` of the conversation at the claim: anything later waits for the next run */
  watermark: bigint;
  /**
   * When the claim's transaction was sent (ms since epoch, this process's clock): its lease counts
   * from the transaction's start, so from no earlier than this. A worker frozen inside the claim
   * wakes with that lease already spent, and must not relay as if it had just begun.
   */
  claimSentAt: number;
}

export interface ClaimOptions {
  conversationId: string;
  workerId: string;
  leaseMs: number;
  /**
   * Claim only a pending batch that is due by this timing (nothing otherwise): for a worker that
   * launches the batch its last poll saw coming, at its time, without polling again. A send since
   * that poll moved the batch's time (or an operator took the conversation) and the claim says so.
   */
  onlyIfDue?: BatchTiming;
  /**
   * Called once the claim statement has named the batch, while the claim's view, events and
   * commit are still on their way: work that needs only the batch (a run's reads) starts there
   * instead of after the commit. Not called when nothing is claimed; should the transaction then
   * fail, what it started is the caller's to drop.
   */
  whileCommitting?: (batch: ClaimedBatch) => void;
}

/**
 * Where a run's claim and its end are written: the pool's own connection for a visitor's batch and
 * its common reply (store-reply.ts), Prisma's client for the rest.
 */
export interface ClaimStores {
  db: Db;
  sql: RawDb;
  bus: EventBus;
}

/**
 * In ONE transaction: take the next fencing number, retire runs whose lease ran out,
 * claim every pending (or previously failed) user message of the conversation, and open
 * a run. Returns null when there is nothing to answer, a live run still holds a lease, or an
 * operator holds the conversation (took it over: the hold is a column, so every worker and
 * every restart respects it). The caller must hold the conversation's Redis lock; the fence
 * makes that lock advisory.
 *
 * With no visitor message to answer, the run may write an unsolicited message instead: the
 * conversation's oldest pending proactive request (an intent, a check-in), if the budget still
 * allows it at this moment; a refusal is recorded after the claim rolls back.
 *
 * A visitor's batch, the debounce bench's path, is claimed on the pool's own connection (its
 * five statements through Prisma cost ~2 ms more CPU). Finding no visitor message there,
 * the claim rolls back and is made again through Prisma's client, which the proactive checks use.
 */
export async function claimBatch(s: ClaimStores, opts: ClaimOptions): Promise<ClaimedBatch | null> {
  const runId = randomUUID();
  const claimSentAt = Date.now();
  try {
    return await transactRawWithEvents(
      s.sql,
      s.bus,
      async (tx, emit) => {
        const { conv, claim } = await claimStatements(tx, opts, runId);
        if (claim.claimed.length === 0) throw new NothingToClaim({ tryProactive: true });
        const messageIds = claim.claimed
          .map((m) => ({ id: m.id, seq: BigInt(m.seq) }))
          .sort((a, b) => (a.seq < b.seq ? -1 : 1))
          .map((m) => m.id);
        const batch: ClaimedBatch = { ...batchOf(conv, claim, runId, claimSentAt, opts), messageIds, proactive: null };
        opts.whileCommitting?.(batch);
        emit(conv.visitorId, { type: 'run.started', conversationId: opts.conversationId, runId, claimedMessageIds: messageIds });
        // The view rode the claim statement (a round trip less, ~1.5 ms of the debounce bench's path).
        // Its snapshot predates what the statement changed, and two of those show in a view: the run
        // it opened is the latest, and the claimed messages await its reply.
        const conversation = viewOfRow(
          { ...claim, awaitingReply: true },
          { id: runId, status: 'claimed', leaseUntil: claim.leaseUntil!, proactiveId: null },
        );
        emit(conv.visitorId, { type: 'conversation.updated', conversationId: opts.conversationId, conversation });
        return batch;
      },
      { awaitNotify: false },
    );
  } catch (err) {
    if (!(err instanceof NothingToClaim) || !err.tryProactive) return nothingClaimed(s.db, err);
  }
  return claimProactiveBatch(s, opts);
}

/**
 * The claim of a run that writes an unsolicited message (no visitor message is pending): the
 * same two statements as {@link claimBatch}, then the proactive request, in a transaction on
 * Prisma's client. Its lease counts from this transaction, a new run's.
 */
async function claimProactiveBatch(s: ClaimStores, opts: ClaimOptions): Promise<ClaimedBatch | null> {
  const runId = randomUUID();
  const claimSentAt = Date.now();
  try {
    return await transactWithEvents(
      s.db,
      s.bus,
      async (tx, emit) => {
        const { conv, claim } = await claimStatements(rawSqlOf(tx), opts, runId);
        if (claim.claimed.length > 0) throw new NothingToClaim(); // a send since: the next claim takes it
        const found = await claimProactive(tx, {
          conversationId: opts.conversationId,
          visitorId: conv.visitorId,
          siteId: conv.siteId,
          runId,
        });
        if (!found) throw new NothingToClaim();
        if ('refused' in found) throw new NothingToClaim({ refusal: found.refused });
        const batch: ClaimedBatch = { ...batchOf(conv, claim, runId, claimSentAt, opts), messageIds: [], proactive: found };
        opts.whileCommitting?.(batch);
        emit(conv.visitorId, { type: 'run.started', conversationId: opts.conversationId, runId, claimedMessageIds: [] });
        // the proactive claim changed the run after the claim statement: the view is read again
        const conversation = await loadConversationView(tx, opts.conversationId);
        emit(conv.visitorId, { type: 'conversation.updated', conversationId: opts.conversationId, conversation });
        return batch;
      },
      { awaitNotify: false },
    );
  } catch (err) {
    return nothingClaimed(s.db, err);
  }
}

/** A claim that rolled back: nothing to do (a refused proactive request is recorded), or a real error. */
async function nothingClaimed(db: Db, err: unknown): Promise<null> {
  if (!(err instanceof NothingToClaim)) throw err;
  if (err.refusal) await refuseProactive(db, err.refusal);
  return null;
}

interface FenceRow {
  fence: number;
  visitorId: string;
  siteId: string;
}

type ClaimRow = ViewRow & { live: boolean; claimed: { id: string; seq: string }[]; watermark: string; leaseUntil: Date | null };

/**
 * The claim's two statements, shared by both paths (int8 travels as text, so both drivers agree).
 * Throws {@link NothingToClaim} when the conversation is held, not due, or a live run leads it.
 */
async function claimStatements(tx: RawSql, opts: ClaimOptions, runId: string): Promise<{ conv: FenceRow; claim: ClaimRow }> {
  // Row lock on the conversation: claims and fenced writes of one conversation serialize here.
  const [conv] = await tx.rows<FenceRow>(Prisma.sql`
    UPDATE "Conversation" SET fence = fence + 1 WHERE id = ${opts.conversationId}::uuid AND "heldById" IS NULL
      ${opts.onlyIfDue ? dueNow(opts.conversationId, opts.onlyIfDue) : Prisma.empty}
    RETURNING fence, "visitorId", "siteId"`);
  if (!conv) throw new NothingToClaim();

  // The rest of the claim in one statement (it was five, one round trip each, on the debounce
  // bench's path). It runs after the fence bump above, so its snapshot sees every run
  // a claim that held the row before us committed: the live check cannot miss one. One snapshot
  // also makes the watermark agree with the claimed set. The claimed messages name the run this
  // statement inserts: the foreign key is checked at the statement's end, when it exists. The
  // conversation's view (`v`) rides along for the claim's event.
  const [claim] = await tx.rows<ClaimRow>(Prisma.sql`
    WITH live AS (
      SELECT 1 FROM "Run" WHERE "conversationId" = ${opts.conversationId}::uuid
        AND status IN ('claimed', 'streaming') AND "leaseUntil" > now() LIMIT 1
    ), retired AS (
      UPDATE "Run" SET status = 'abandoned', error = coalesce(error, 'lease_expired'), "endedAt" = now()
      WHERE "conversationId" = ${opts.conversationId}::uuid AND status IN ('claimed', 'streaming')
        AND NOT EXISTS (SELECT 1 FROM live)
      RETURNING id
    ), run AS (
      -- started when this statement ran, after the fence bump's row lock: not at the transaction's
      -- start (now()), which a claim held back by an earlier run (or frozen after its BEGIN) dates
      -- before that run ended (chaos: a claim frozen 3.8 s after BEGIN dated itself before the
      -- run it followed, and that run's reply text looked relayed after it). The lease stays
      -- counted from the transaction's start: never longer than it was.
      INSERT INTO "Run" (id, "conversationId", fence, status, "workerId", "leaseUntil", "startedAt")
      SELECT ${runId}::uuid, ${opts.conversationId}::uuid, ${conv.fence}, 'claimed', ${opts.workerId},
             now() + make_interval(secs => ${opts.leaseMs / 1000}), statement_timestamp()
      WHERE NOT EXISTS (SELECT 1 FROM live)
      RETURNING id, "leaseUntil"
    ), claimed AS (
      UPDATE "Message" SET state = 'claimed', "runId" = ${runId}::uuid
      WHERE "conversationId" = ${opts.conversationId}::uuid AND role = 'user'
        AND state IN ('pending', 'claimed', 'failed') AND EXISTS (SELECT 1 FROM run)
      RETURNING id, seq
    )
    SELECT EXISTS (SELECT 1 FROM live) AS live,
      (SELECT coalesce(json_agg(json_build_object('id', id, 'seq', seq::text)), '[]') FROM claimed) AS claimed,
      (SELECT coalesce(max(seq), 0) FROM "Message" WHERE "conversationId" = ${opts.conversationId}::uuid)::text AS watermark,
      (SELECT "leaseUntil" FROM run) AS "leaseUntil", v.*
    FROM (${conversationViewSql(opts.conversationId)}) v`);
  if (!claim || claim.live) throw new NothingToClaim();
  return { conv, claim };
}

/** What both paths' batches share. */
function batchOf(
  conv: FenceRow,
  claim: ClaimRow,
  runId: string,
  claimSentAt: number,
  opts: ClaimOptions,
): Omit<ClaimedBatch, 'messageIds' | 'proactive'> {
  return {
    runId,
    conversationId: opts.conversationId,
    visitorId: conv.visitorId,
    siteId: conv.siteId,
    fence: conv.fence,
    watermark: BigInt(claim.watermark),
    claimSentAt,
  };
}

/** The conversation's pending batch is due at the claim (the rule of due-batches.ts). */
const dueNow = (conversationId: string, timing: BatchTiming) => Prisma.sql`AND EXISTS (
  SELECT 1 FROM "Message" m JOIN "Conversation" c ON c.id = m."conversationId"
  WHERE m."conversationId" = ${conversationId}::uuid AND m.state = 'pending'
  GROUP BY c."typingAt" HAVING ${pendingDueAtSql(timing)} <= now())`;

/** Rolls the claim transaction back (the fence bump included) when there is nothing to do. */
class NothingToClaim extends Error {
  readonly refusal?: ProactiveRefusal;
  /** no visitor message was pending: the proactive path may still find a request */
  readonly tryProactive: boolean;
  constructor(opts: { refusal?: ProactiveRefusal; tryProactive?: boolean } = {}) {
    super('nothing to claim');
    this.refusal = opts.refusal;
    this.tryProactive = opts.tryProactive ?? false;
  }
}
