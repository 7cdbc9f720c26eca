import { Prisma, type Db } from '../db/client.ts';
import { rawSqlOf, type RawDb, type RawSql } from '../db/raw-sql.ts';
import type { Tx } from '../db/types.ts';
import type { EventBus } from './event-bus.ts';
import type { DurableEvent } from './event-types.ts';

type Emit = (visitorId: string, event: DurableEvent) => void;
type Pending = { visitorId: string; event: DurableEvent }[];

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
  opts: TransactOptions = {},
): Promise<T> {
  return transact((w) => db.$transaction(w), rawSqlOf, bus, work, opts);
}

/**
 * {@link transactWithEvents} on the pool's own connection (db/raw-sql.ts), for the hot path's
 * transactions (a claim, a send group): the same events, locks and wake-ups, without Prisma's
 * per-statement and per-transaction CPU.
 */
export async function transactRawWithEvents<T>(
  sql: RawDb,
  bus: EventBus,
  work: (tx: RawSql, emit: Emit) => Promise<T>,
  opts: TransactOptions = {},
): Promise<T> {
  return transact(
    (w) => sql.transaction(w),
    (tx) => tx,
    bus,
    work,
    opts,
  );
}

async function transact<T, X>(
  inTransaction: (work: (tx: X) => Promise<T>) => Promise<T>,
  statementsOf: (tx: X) => RawSql,
  bus: EventBus,
  work: (tx: X, emit: Emit) => Promise<T>,
  opts: TransactOptions,
): Promise<T> {
  const pending: Pending = [];
  const result = await inTransaction(async (tx) => {
    const value = await work(tx, (visitorId, event) => pending.push({ visitorId, event }));
    if (pending.length > 0) await statementsOf(tx).count(insertEventsSql(pending));
    return value;
  });
  // The change is committed: a Redis error now must not make the caller think it failed (a run
  // would store "Reply failed" after its reply). Streams re-read the log anyway (SSE_CATCHUP_MS).
  const notified = Promise.all([
    ...[...new Set(pending.map((p) => p.visitorId))].map((v) => bus.wake(v)),
    touchConversations(
      bus,
      pending.map((p) => p.event.conversationId),
    ),
  ]).catch((err: unknown) => bus.notifyFailed(err));
  if (opts.awaitNotify !== false) await notified;
  return result;
}

export interface TransactOptions {
  /**
   * false: return at commit, while the wake-ups are still on their way (a claim does, so its model
   * request is not held up by them: 3.6 ms of the debounce bench's claim → model request). The
   * wake-ups were issued first on the publishing connection, so the run's deltas, relayed on the
   * same connection, still reach Redis after them.
   */
  awaitNotify?: boolean;
}

/** Console touches per bus: the one being published, and the ids waiting for the next. */
const touches = new WeakMap<EventBus, { sending: Promise<void> | null; next: Promise<void> | null; ids: Set<string> }>();

/**
 * Tells the console's streams which conversations changed. Commits that land while a touch is
 * being published share the next one (their ids together): under 64 concurrent senders that is
 * one publish per Redis round trip instead of one per commit, and every console stream re-reads
 * once for the lot. Resolves once a touch naming these ids went out after their commit.
 */
function touchConversations(bus: EventBus, conversationIds: string[]): Promise<void> {
  if (conversationIds.length === 0) return Promise.resolve();
  let touch = touches.get(bus);
  if (!touch) touches.set(bus, (touch = { sending: null, next: null, ids: new Set() }));
  const t = touch;
  for (const id of conversationIds) t.ids.add(id);
  const publish = (): Promise<void> => {
    const ids = [...t.ids];
    t.ids.clear();
    t.next = null;
    const sending = bus.touchConversations(ids);
    t.sending = sending;
    const settle = () => {
      if (t.sending === sending) t.sending = null;
    };
    sending.then(settle, settle);
    return sending;
  };
  if (!t.sending) return publish();
  t.next ??= t.sending.then(publish, publish);
  return t.next;
}

/**
 * One statement: the per-visitor locks (sorted by visitor id, so two transactions never take them
 * crosswise), then the rows in emit order. The locks sit in an
 * uncorrelated subquery of the WHERE, which PostgreSQL evaluates once before the first row is
 * produced, so every id is drawn under its visitor's lock, as with a lock statement before the
 * insert, one round trip instead of two or more.
 */
function insertEventsSql(pending: Pending): Prisma.Sql {
  const visitors = [...new Set(pending.map((p) => p.visitorId))].sort();
  return Prisma.sql`
    INSERT INTO "Event" ("visitorId", "conversationId", type, payload)
    SELECT e."visitorId"::uuid, e."conversationId"::uuid, e.type, e.payload::jsonb
    FROM unnest(
      ${pending.map((p) => p.visitorId)}::text[], ${pending.map((p) => p.event.conversationId)}::text[],
      ${pending.map((p) => p.event.type)}::text[], ${pending.map((p) => JSON.stringify(p.event))}::text[]
    ) WITH ORDINALITY AS e("visitorId", "conversationId", type, payload, n)
    WHERE (SELECT count(pg_advisory_xact_lock(hashtext('heed:events:' || v)))
           FROM (SELECT unnest(${visitors}::text[]) AS v ORDER BY 1) AS locks) >= 0
    ORDER BY e.n`;
}
