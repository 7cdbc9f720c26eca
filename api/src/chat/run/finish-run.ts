import { Prisma, type Db } from '../../db/client.ts';
import type { RawSql } from '../../db/raw-sql.ts';
import type { EventBus } from '../../events/event-bus.ts';
import type { DurableEvent } from '../../events/event-types.ts';
import type { Tx } from '../../db/types.ts';
import { transactWithEvents } from '../../events/append-events.ts';
import { loadConversationView } from '../../conversations/queries.ts';
import { messageSelect, toMessageView } from '../../conversations/views.ts';
import { speakToVisitor } from '../../conversations/speak-to-visitor.ts';
import { excerptOf, truncateOnWord, EXCERPT_MAX } from '../../shared/excerpt.ts';
import { requestTitle } from '../../titles/request-title.ts';
import { addSiteUsage } from '../../limits/site-usage.ts';
import { assertFence } from '../schedule/fence.ts';
import { isCutShort, storeReply, type PlainReply } from './store-reply.ts';
import type { ClaimedBatch, ClaimStores } from '../schedule/claim-batch.ts';
import { FAILURE_TEXT, type ReplyErrorCode } from '../model/model-errors.ts';
import type { UserInputArgs } from '../model/tools.ts';
import type { RetrievedExcerpt } from '../../shared/citations.ts';

/**
 * Stores the reply, marks the claimed batch answered, sets the unread metadata and asks for
 * a title check (a durable request the title pass answers later, never a model call here),
 * and counts the run's cost in `Run.costUsd` and the site's day (`SiteUsage`), all fenced: a
 * run that lost its lease throws FenceLostError and nothing is written (nor counted: a
 * newer run's reply is the one the visitor gets and the one that counts).
 *
 * A reply that asks the visitor something (`question`) also opens its input request (the
 * conversation's previous open one, if any, is superseded) and ends the run `awaiting_input`;
 * the question is unread like any reply, and its excerpt is the question.
 *
 * A run that wrote an unsolicited message (`batch.proactive`) stores it labelled with its
 * provenance through the same unread write, marks its request `delivered`, and asks for no title.
 */
export async function completeRun(
  stores: ClaimStores,
  batch: ClaimedBatch,
  reply: PlainReply & { question?: (UserInputArgs & { callId: string }) | null },
): Promise<void> {
  const question = reply.question ?? null;
  // the common reply, on the pool's own connection: its transaction holds the conversation shortest
  if (!question && !batch.proactive) return storeReply(stores.sql, stores.bus, batch, reply);
  await transactWithEvents(stores.db, stores.bus, async (tx, emit) => {
    await assertFence(tx, batch);
    const proactive = batch.proactive;
    const created = await speakToVisitor(tx, {
      conversationId: batch.conversationId,
      visitorId: batch.visitorId,
      role: 'assistant',
      content: reply.text,
      runId: batch.runId,
      cutShort: isCutShort(reply.finishReason),
      sources: reply.sources,
      // an unsolicited message says why it appeared: its kind and the intent's label (a check-in's is the widget's word)
      ...(proactive ? { provenance: proactive.kind, provenanceLabel: proactive.label } : {}),
      ...(question ? { excerpt: excerptOf(question.question) } : {}),
    });
    if (proactive) await decideRequest(tx, batch, { status: 'delivered', messageId: created.id });
    if (question) {
      // Under the conversation row lock taken by assertFence: at most one request is ever open.
      await tx.inputRequest.updateMany({
        where: { conversationId: batch.conversationId, status: 'open' },
        data: { status: 'superseded', closedAt: created.createdAt },
      });
      await tx.inputRequest.create({
        data: {
          conversationId: batch.conversationId,
          runId: batch.runId,
          toolCallId: question.callId,
          messageId: created.id,
          question: question.question,
          choices: question.choices,
          allowFreeText: question.allowFreeText,
          createdAt: created.createdAt,
        },
      });
    }
    // read back only when the reply opened an input request, which the view carries
    const message = question ? await tx.message.findUniqueOrThrow({ where: { id: created.id }, select: messageSelect }) : created;
    await tx.message.updateMany({ where: { runId: batch.runId, role: 'user', state: 'claimed' }, data: { state: 'answered' } });
    await tx.run.update({
      where: { id: batch.runId },
      data: {
        status: question ? 'awaiting_input' : 'completed',
        endedAt: message.createdAt,
        attempts: reply.attempts,
        promptTokens: reply.promptTokens,
        completionTokens: reply.completionTokens,
        costUsd: reply.cost?.costUsd ?? null,
        firstTokenAt: reply.firstTokenAt ?? null,
        finishReason: reply.finishReason ?? null,
      },
    });
    // titles read only the visitor's own words: an unsolicited message gives them nothing new
    if (!proactive) await requestTitle(tx, batch.conversationId);
    emit(batch.visitorId, {
      type: 'reply.completed',
      conversationId: batch.conversationId,
      runId: batch.runId,
      message: toMessageView(message),
    });
    const conversation = await loadConversationView(tx, batch.conversationId);
    emit(batch.visitorId, { type: 'conversation.updated', conversationId: batch.conversationId, conversation });
    const cost = reply.cost;
    await addSiteUsage(tx, batch.siteId, {
      modelRequests: reply.attempts,
      promptTokens: cost?.promptTokens ?? reply.promptTokens,
      completionTokens: cost?.completionTokens ?? reply.completionTokens,
      costUsd: cost?.costUsd,
    });
  });
}

/**
 * Stores a failed reply the visitor can see and retry: the batch goes `failed`, the
 * conversation gets an excerpt and stays unread, so it keeps asking for attention. The
 * site's day counts the model requests made (a refusal at the spend cap made none, and
 * counts as a refusal instead, which the operator API shows).
 */
export async function failRun(
  db: Db,
  bus: EventBus,
  batch: ClaimedBatch,
  failure: { code: ReplyErrorCode; attempts: number; firstTokenAt?: Date | null },
): Promise<void> {
  const text = FAILURE_TEXT[failure.code];
  await transactWithEvents(db, bus, async (tx, emit) => {
    await assertFence(tx, batch);
    // A run whose reply already committed is never failed on top of it: its completing call can
    // still throw after the commit (the COMMIT's answer lost with a terminated connection), and
    // the visitor would then see the reply followed by "Reply failed" (found by `npm run chaos`).
    if ((await tx.run.count({ where: { id: batch.runId, status: { in: ['claimed', 'streaming'] } } })) === 0) return;
    if (batch.proactive) return failUnsolicited(tx, emit, batch, failure);
    const message = await speakToVisitor(tx, {
      conversationId: batch.conversationId,
      visitorId: batch.visitorId,
      role: 'assistant',
      content: text,
      error: failure.code,
      runId: batch.runId,
      excerpt: truncateOnWord(`Reply failed: ${text}`, EXCERPT_MAX),
    });
    await tx.message.updateMany({ where: { runId: batch.runId, role: 'user', state: 'claimed' }, data: { state: 'failed' } });
    await tx.run.update({
      where: { id: batch.runId },
      data: {
        status: 'failed',
        error: failure.code,
        endedAt: message.createdAt,
        attempts: failure.attempts,
        firstTokenAt: failure.firstTokenAt ?? null,
        finishReason: finishReasonOf(failure.code),
      },
    });
    emit(batch.visitorId, {
      type: 'reply.failed',
      conversationId: batch.conversationId,
      runId: batch.runId,
      message: toMessageView(message),
    });
    const conversation = await loadConversationView(tx, batch.conversationId);
    emit(batch.visitorId, { type: 'conversation.updated', conversationId: batch.conversationId, conversation });
    await addSiteUsage(tx, batch.siteId, failure.code === 'spend_cap' ? { capRefusals: 1 } : { modelRequests: failure.attempts });
  });
}

/**
 * A failed unsolicited message shows the visitor nothing (nobody asked for it, so there is
 * nothing to retry): no message, no unread change; the request is `failed` with the code, the
 * run `failed`, and the conversation's live state ends (`conversation.updated`).
 */
async function failUnsolicited(
  tx: Tx,
  emit: (visitorId: string, event: DurableEvent) => void,
  batch: ClaimedBatch,
  failure: { code: ReplyErrorCode; attempts: number; firstTokenAt?: Date | null },
): Promise<void> {
  await decideRequest(tx, batch, { status: 'failed', reason: failure.code });
  await tx.run.update({
    where: { id: batch.runId },
    data: {
      status: 'failed',
      error: failure.code,
      endedAt: new Date(),
      attempts: failure.attempts,
      firstTokenAt: failure.firstTokenAt ?? null,
      finishReason: finishReasonOf(failure.code),
    },
  });
  const conversation = await loadConversationView(tx, batch.conversationId);
  emit(batch.visitorId, { type: 'conversation.updated', conversationId: batch.conversationId, conversation });
  await addSiteUsage(tx, batch.siteId, failure.code === 'spend_cap' ? { capRefusals: 1 } : { modelRequests: failure.attempts });
}

/** Settles the run's proactive request, only while this run holds it (the WHERE is the rule). */
async function decideRequest(
  tx: Tx,
  batch: ClaimedBatch,
  outcome: { status: 'delivered'; messageId: string } | { status: 'failed'; reason: string },
): Promise<void> {
  await tx.proactiveRequest.updateMany({
    where: { id: batch.proactive!.requestId, runId: batch.runId, status: 'claimed' },
    data:
      outcome.status === 'delivered'
        ? { status: 'delivered', messageId: outcome.messageId, decidedAt: new Date() }
        : { status: 'failed', reason: outcome.reason, decidedAt: new Date() },
  });
}

/**
 * Moves the run to `streaming` and extends its lease in the database; false when the fence is
 * lost. `model`, given when streaming starts, records the model the run asks (the console shows it).
 */
export async function renewRunLease(
  sql: RawSql,
  batch: ClaimedBatch,
  leaseMs: number,
  status: 'claimed' | 'streaming',
  model?: string,
  /** the site's excerpts the run is shown (recorded with the renewal that marks it streaming) */
  retrieved?: readonly RetrievedExcerpt[],
): Promise<boolean> {
  // FOR SHARE waits for a claim in flight (it holds the row from its fence bump to its commit) and
  // then reads its fence: without it, a renewal during that claim read the old fence, "succeeded",
  // and the relay kept streaming a run the claim had just retired (found by `npm run chaos`).
  // On the pool's own connection: the renewal that marks a run streaming goes out beside its model
  // request, on the same event loop, and Prisma's client spent ~0.35 ms more CPU on it.
  const n = await sql.count(Prisma.sql`
    UPDATE "Run" r SET "leaseUntil" = now() + make_interval(secs => ${leaseMs / 1000}), status = ${status}::"RunStatus",
      model = COALESCE(${model ?? null}::varchar, r.model),
      retrieved = COALESCE(${retrieved?.length ? JSON.stringify(retrieved) : null}::jsonb, r.retrieved)
    WHERE r.id = ${batch.runId}::uuid AND r.status IN ('claimed', 'streaming')
      AND r.fence = (SELECT c.fence FROM "Conversation" c WHERE c.id = ${batch.conversationId}::uuid FOR SHARE)`);
  return n === 1;
}

/**
 * Hands a run's batch back at once (graceful shutdown): its lease ends now, so the batch
 * is due and the next worker's claim retires this run and takes its claimed messages, with
 * a higher fence, without waiting out the lease. Fenced like every write: a run that
 * already lost the conversation changes nothing. Returns whether it released.
 */
export async function releaseRun(db: Db, batch: ClaimedBatch): Promise<boolean> {
  const n = await db.$executeRaw`
    UPDATE "Run" r SET "leaseUntil" = now(), error = 'released'
    FROM "Conversation" c
    WHERE r.id = ${batch.runId}::uuid AND c.id = r."conversationId" AND c.fence = r.fence
      AND r.status IN ('claimed', 'streaming')`;
  return n === 1;
}

/** The finish reason a failure stands for: only the content filter ends a stream with one. */
const finishReasonOf = (code: ReplyErrorCode): string | null => (code === 'model_content_filtered' ? 'content_filter' : null);
