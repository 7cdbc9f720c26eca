import type { Db } from '../db/client.ts';
import type { EventBus } from './event-bus.ts';
import type { DurableEvent } from './event-types.ts';

import type { Tx } from '../db/types.ts';

type Emit = (visitorId: string, event: DurableEvent) => void;

/**
 * Runs `work` in one transaction and appends the events it emits to the log in that same
 * transaction, so a state change and its event commit (or vanish) together.
 *
 * Ids are allocated under a per-visitor transaction lock taken just before the insert:
 * a visitor's events therefore commit in id order, and a reader that has seen id N can
 * never later find a smaller id appear (the classic outbox gap). After commit, the
 * visitors' subscribers are woken through Redis to read the new rows, and the console's
 * streams are told which conversations changed (every event names its conversation).
 */
export async function transactWithEvents<T>(
  db: Db,
  bus: EventBus,
  work: (tx: Tx, emit: Emit) => Promise<T>,
): Promise<T> {
  const pending: { visitorId: string; event: DurableEvent }[] = [];
  const result = await db.$transaction(async (tx) => {
    const value = await work(tx, (visitorId, event) => pending.push({ visitorId, event }));
    await insertEvents(tx, pending);
    return value;
  });
  // The change is committed: a Redis error now must not make the caller think it failed (a run
  // would store "Reply failed" after its reply). Streams re-read the log anyway (SSE_CATCHUP_MS).
  await Promise.all([
    ...[...new Set(pending.map((p) => p.visitorId))].map((v) => bus.wake(v)),
    bus.touchConversations(pending.map((p) => p.event.conversationId)),
  ]).catch((err: unknown) => bus.notifyFailed(err));
  return result;
}

async function insertEvents(tx: Tx, pending: { visitorId: string; event: DurableEvent }[]): Promise<void> {
  for (const visitorId of [...new Set(pending.map((p) => p.visitorId))].sort()) {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`heed:events:${visitorId}`}))`;
  }
  if (pending.length === 0) return;
  await tx.event.createMany({
    data: pending.map(({ visitorId, event }) => ({
      visitorId,
      conversationId: event.conversationId,
      type: event.type,
      payload: event as object,
    })),
  });
}
