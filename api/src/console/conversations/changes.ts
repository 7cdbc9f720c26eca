import { Prisma } from '../../db/client.ts';
import type { Services } from '../../services.ts';
import { siteScopeSql, type SiteScope } from '../../operators/site-access.ts';
import { conversationItemsById } from './items-by-id.ts';
import type { ConversationItem } from './item.ts';

/** What the console's stream carries: a conversation to insert or replace in the list, or one that no longer exists. */
export type ConversationChange = { type: 'upsert'; item: ConversationItem } | { type: 'removed'; conversationId: string };

/** A change with the event-log position to resume after (`lastEventId`). */
export interface TrackedChange {
  id: string;
  change: ConversationChange;
}

/**
 * How far a resume looks back before the client's last event id. Event ids are allocated in
 * order per visitor, not across visitors: a transaction that allocated id N may commit after
 * one that allocated N+1, so "id > lastEventId" alone could miss it. Every event's `createdAt`
 * is its transaction's start, so events committed late still fall inside this margin of the
 * last one seen (transactions here last milliseconds). Re-sending a conversation is harmless:
 * an upsert replaces the row with its current state.
 */
const RESUME_MARGIN = '30 seconds';
/** And at most this many ids back (an index range, whatever the log's size). */
const RESUME_LOOKBACK_IDS = 10_000n;
/** Most conversations one resume re-sends (newest activity first); a client away longer reloads its list. */
const RESUME_MAX = 500;
/** Most conversations re-read per statement. */
const READ_PAGE = 100;
/** A quiet stream checks its operator's session this often (and before every read): a revoked session's stream ends. */
const SESSION_RECHECK_MS = 30_000;

/**
 * The console's live list for one operator: every conversation (of `siteId`, or of every
 * site the operator may act on: `sites`) that is created or changes, re-read for THIS operator (their read markers) and sent
 * whole. Push, not poll: `transactWithEvents` publishes the ids a commit touched on the
 * console's one Redis channel, and this stream waits on it. Changes that arrive while a
 * read is under way are coalesced into the next read (one statement for all of them).
 *
 * Resumable: each change carries the event-log position read before it, so a reconnect
 * with `lastEventId` re-sends every conversation whose events came after (with a margin,
 * see RESUME_MARGIN), coalesced by conversation. The channel is joined before that catch-up
 * read, so nothing committed in between is missed.
 *
 * The stream lives no longer than the grant it was opened under: `session` is asked before
 * every read, at once when the bus says this operator's access changed (sign-out, removal, a
 * password set, a change of sites: see operators/access-changed.ts), and every
 * SESSION_RECHECK_MS while quiet. A signed-out, revoked or removed operator's stream ends (its
 * reconnect is then refused as signed out); so does one whose sites changed (its reconnect
 * starts over under the new sites). Each read uses the sites the session answers, so nothing
 * outside the current sites is sent even before the stream ends.
 */
export async function* conversationChanges(
  s: Pick<Services, 'db' | 'bus'>,
  q: {
    operatorId: string;
    siteId?: string;
    /** the operator's live session with their sites, read again before every read; null once it ended */
    session: () => Promise<{ sites: SiteScope } | null>;
    /** the sites the stream was opened under: a change of them ends it */
    sites: SiteScope;
    lastEventId: string | null;
  },
  signal: AbortSignal,
): AsyncGenerator<TrackedChange> {
  const touched = new Set<string>();
  let accessChanged = false;
  let notify: (() => void) | null = null;
  const unsubscribe = await s.bus.subscribeConsole((m) => {
    for (const id of m.conversationIds) touched.add(id);
    if (m.operatorIds?.includes(q.operatorId)) accessChanged = true;
    notify?.();
  });
  const onAbort = () => notify?.();
  signal.addEventListener('abort', onAbort);
  try {
    if (q.lastEventId !== null) {
      const cursor = await eventCursor(s);
      const session = await q.session();
      if (!session) return;
      const missed = await changedSince(s, BigInt(q.lastEventId), { siteId: q.siteId, sites: session.sites });
      yield* send(s, { ...q, sites: session.sites }, missed, cursor);
    }
    while (!signal.aborted) {
      if (touched.size === 0 && !accessChanged) {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const woken = await new Promise<boolean>((resolve) => {
          notify = () => resolve(true);
          timer = setTimeout(() => resolve(false), SESSION_RECHECK_MS);
        });
        clearTimeout(timer);
        notify = null;
        if (!woken && !signal.aborted && !(await q.session())) return;
        continue;
      }
      const checkGrant = accessChanged;
      accessChanged = false;
      const session = await q.session();
      if (!session) return;
      if (checkGrant && !sameScope(session.sites, q.sites)) return;
      if (touched.size === 0) continue;
      const ids = [...touched];
      touched.clear();
      // the log position BEFORE the read: whatever commits after it is re-read on resume
      const cursor = await eventCursor(s);
      yield* send(s, { ...q, sites: session.sites }, ids, cursor);
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
    await unsubscribe();
  }
}

/** Whether two scopes cover the same sites. */
function sameScope(a: SiteScope, b: SiteScope): boolean {
  if (a === null || b === null) return a === b;
  return a.length === b.length && a.every((id) => b.includes(id));
}

async function* send(
  s: Pick<Services, 'db'>,
  q: { operatorId: string; siteId?: string; sites: SiteScope },
  ids: readonly string[],
  cursor: string,
): AsyncGenerator<TrackedChange> {
  for (let i = 0; i < ids.length; i += READ_PAGE) {
    const items = await conversationItemsById(s.db, {
      operatorId: q.operatorId,
      ids: ids.slice(i, i + READ_PAGE),
      siteId: q.siteId,
      sites: q.sites,
    });
    for (const item of items) yield { id: cursor, change: { type: 'upsert', item } };
    for (const conversationId of await deletedOf(s, ids.slice(i, i + READ_PAGE), items))
      yield { id: cursor, change: { type: 'removed', conversationId } };
  }
}

/**
 * The touched ids that no longer exist at all (deleted by their visitor, erased, swept by
 * retention): the list drops them. An id that exists but is outside the operator's scope is not
 * among them, so a removal says nothing about another site's conversations.
 */
async function deletedOf(s: Pick<Services, 'db'>, ids: readonly string[], found: readonly ConversationItem[]): Promise<string[]> {
  const missing = ids.filter((id) => !found.some((item) => item.id === id));
  if (missing.length === 0) return [];
  const existing = await s.db.conversation.findMany({ where: { id: { in: missing } }, select: { id: true } });
  return missing.filter((id) => !existing.some((c) => c.id === id));
}

/** The newest event id (0 in an empty log), as a decimal string. */
async function eventCursor(s: Pick<Services, 'db'>): Promise<string> {
  const [row] = await s.db.$queryRaw<{ id: bigint | null }[]>`SELECT max(id) AS id FROM "Event"`;
  return (row?.id ?? 0n).toString();
}

/**
 * Conversations (of the scope) with events after `lastEventId` or within RESUME_MARGIN
 * before it, newest activity first, at most RESUME_MAX.
 */
async function changedSince(s: Pick<Services, 'db'>, lastEventId: bigint, q: { siteId?: string; sites: SiteScope }): Promise<string[]> {
  const rows = await s.db.$queryRaw<{ id: string }[]>`
    WITH since AS (
      SELECT COALESCE((SELECT "createdAt" FROM "Event" WHERE id = ${lastEventId}), now()) - ${RESUME_MARGIN}::interval AS at)
    SELECT c.id FROM "Conversation" c
    WHERE c.id IN (
        SELECT e."conversationId" FROM "Event" e, since
        WHERE e.id > ${lastEventId - RESUME_LOOKBACK_IDS} AND (e.id > ${lastEventId} OR e."createdAt" >= since.at))
      AND ${q.siteId ? Prisma.sql`c."siteId" = ${q.siteId}::uuid` : Prisma.sql`TRUE`}
      AND ${siteScopeSql(q.sites, Prisma.sql`c."siteId"`)}
    ORDER BY c."updatedAt" DESC, c.id DESC
    LIMIT ${RESUME_MAX}`;
  return rows.map((r) => r.id);
}
