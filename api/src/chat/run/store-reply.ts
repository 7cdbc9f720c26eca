import { Prisma } from '../../db/client.ts';
import type { RawDb } from '../../db/raw-sql.ts';
import type { EventBus } from '../../events/event-bus.ts';
import { transactRawWithEvents } from '../../events/append-events.ts';
import { conversationViewSql, viewOfRow, type ViewRow } from '../../conversations/queries.ts';
import { unreadMove } from '../../conversations/speak-to-visitor.ts';
import { toMessageView } from '../../conversations/views.ts';
import { addSiteUsageSql } from '../../limits/site-usage.ts';
import type { RunCost } from '../../limits/run-cost.ts';
import { excerptOf } from '../../shared/excerpt.ts';
import { titleRequestedAtAfterReply } from '../../titles/request-title.ts';
import type { ClaimedBatch } from '../schedule/claim-batch.ts';
import { FenceLostError } from '../schedule/fence.ts';
import type { CitedSource } from '../../shared/citations.ts';

/** Whether the model stopped the reply at its token cap (it has more to say: the visitor may ask for the rest). */
export const isCutShort = (finishReason: string | null | undefined): boolean => finishReason === 'length';

/** A reply to the visitor's own words that asks nothing: what {@link storeReply} stores. */
export interface PlainReply {
  text: string;
  attempts: number;
  promptTokens: number | null;
  completionTokens: number | null;
  /** what the model calls cost (priced by the caller); without it the run counts requests only */
  cost?: RunCost;
  /** when the first reply token arrived (this process's clock); null when none was relayed */
  firstTokenAt?: Date | null;
  /** how the model's last answer ended (Run.finishReason) */
  finishReason?: string | null;
  /** the site's pages the reply cites */
  sources?: CitedSource[];
}

type ReplyRow = ViewRow & { messageId: string; seq: string; leaseUntil: Date; awaitingAfter: boolean };

/**
 * `completeRun` for the common reply (a visitor's batch answered, no question), on the pool's own
 * connection in two statements under the conversation's row lock, where Prisma's client took
 * nine. The lock is the point: sends to the conversation wait on it, and while the worker streams
 * other replies its event loop is slow to send a transaction's next statement. In the ingest bench
 * (64 visitors at 1,000 sends/s) the reply's transaction held the lock 97 ms at the median, 418
 * at most, and sends queued behind it (sampled from `pg_stat_activity`).
 *
 * The writes and rules are completeRun's, from the modules that own them: THE unread write's
 * columns (`unreadMove`), the title request (`titleRequestedAtAfterReply`), the site's day
 * (`addSiteUsageSql`), the conversation's view (`conversationViewSql`). Throws FenceLostError,
 * writing nothing, when a newer run owns the conversation.
 */
export async function storeReply(sql: RawDb, bus: EventBus, batch: ClaimedBatch, reply: PlainReply): Promise<void> {
  await transactRawWithEvents(sql, bus, async (tx, emit) => {
    // The fence, THE unread write and the title request in one statement; its row lock serializes
    // this with the conversation's sends and claims. The reply's time is taken once, and the
    // message and the run's end get the same (timestamptz(3) stores it rounded: the value returned).
    const [fenced] = await tx.rows<{ at: Date }>(Prisma.sql`
      UPDATE "Conversation" SET ${unreadMove(Prisma.sql`statement_timestamp()`, excerptOf(reply.text))},
        "titleRequestedAt" = ${titleRequestedAtAfterReply}
      WHERE id = ${batch.conversationId}::uuid AND fence = ${batch.fence}
      RETURNING "lastAssistantAt" AS at`);
    if (!fenced) throw new FenceLostError(batch.runId);

    // The rest in one statement, which sees the row above (a statement before it) but not its own
    // writes: the view it reads still has this run live and its batch claimed, so both are stated.
    const cost = reply.cost;
    const [row] = await tx.rows<ReplyRow>(Prisma.sql`
      WITH reply AS (
        INSERT INTO "Message" (id, "conversationId", "visitorId", role, content, "runId", "cutShort", sources, "createdAt")
        VALUES (gen_random_uuid(), ${batch.conversationId}::uuid, ${batch.visitorId}::uuid, 'assistant', ${reply.text}, ${batch.runId}::uuid,
          ${isCutShort(reply.finishReason)}, ${reply.sources?.length ? JSON.stringify(reply.sources) : null}::jsonb, ${fenced.at})
        RETURNING id, seq
      ), answered AS (
        UPDATE "Message" SET state = 'answered' WHERE "runId" = ${batch.runId}::uuid AND role = 'user' AND state = 'claimed'
      ), run AS (
        UPDATE "Run" SET status = 'completed', "endedAt" = ${fenced.at}, attempts = ${reply.attempts},
          "promptTokens" = ${reply.promptTokens}::int, "completionTokens" = ${reply.completionTokens}::int,
          "costUsd" = ${cost?.costUsd ?? null}::numeric, "firstTokenAt" = ${reply.firstTokenAt ?? null}::timestamptz,
          "finishReason" = ${reply.finishReason ?? null}
        WHERE id = ${batch.runId}::uuid
        RETURNING "leaseUntil"
      ), usage AS (${addSiteUsageSql(batch.siteId, {
        modelRequests: reply.attempts,
        promptTokens: cost?.promptTokens ?? reply.promptTokens,
        completionTokens: cost?.completionTokens ?? reply.completionTokens,
        costUsd: cost?.costUsd,
      })})
      SELECT (SELECT id FROM reply) AS "messageId", (SELECT seq::text FROM reply) AS seq, (SELECT "leaseUntil" FROM run) AS "leaseUntil",
        -- a reply is still awaited for messages sent during the run (pending), not for the batch just answered
        EXISTS (SELECT 1 FROM "Message" m WHERE m."conversationId" = ${batch.conversationId}::uuid
                  AND m.state IN ('pending', 'claimed') AND m."runId" IS DISTINCT FROM ${batch.runId}::uuid) AS "awaitingAfter",
        v.*
      FROM (${conversationViewSql(batch.conversationId)}) v`);
    if (!row) throw new Error(`No Conversation found: ${batch.conversationId}`);

    const message = toMessageView({
      id: row.messageId,
      seq: BigInt(row.seq),
      conversationId: batch.conversationId,
      role: 'assistant',
      content: reply.text,
      clientMessageId: null,
      state: null,
      provenance: null,
      provenanceLabel: null,
      runId: batch.runId,
      error: null,
      cutShort: isCutShort(reply.finishReason),
      sources: reply.sources?.length ? reply.sources : null,
      createdAt: fenced.at,
      inputRequest: null,
    });
    emit(batch.visitorId, { type: 'reply.completed', conversationId: batch.conversationId, runId: batch.runId, message });
    const latestRun = { id: batch.runId, status: 'completed' as const, leaseUntil: row.leaseUntil, proactiveId: null };
    const conversation = viewOfRow({ ...row, awaitingReply: row.awaitingAfter }, latestRun);
    emit(batch.visitorId, { type: 'conversation.updated', conversationId: batch.conversationId, conversation });
  });
}
