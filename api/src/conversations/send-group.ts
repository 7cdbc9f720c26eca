import type { Config } from '../config.ts';
import { Prisma, type Db } from '../db/client.ts';
import { GroupCommit, type ItemOutcome } from '../db/group-commit.ts';
import type { RawSql } from '../db/raw-sql.ts';
import { transactRawWithEvents } from '../events/append-events.ts';
import type { Services } from '../services.ts';
import { fallbackTitle } from '../titles/fallback-title.ts';
import { notFound, refuse } from '../errors/refusal.ts';
import { visitorTokenInvalid } from '../auth/visitor-refusals.ts';
import { bindAttachments } from '../attachments/bind-attachments.ts';
import { conversationViewSql, viewOfRow, type ViewRow } from './queries.ts';
import { messageSelect, toConversationView, toMessageView, VIEW_TODOS_MAX, type ConversationView, type MessageView } from './views.ts';

export interface SendInput {
  visitorId: string;
  conversationId: string;
  clientMessageId: string;
  content: string;
  /** the open input request of this conversation that this message answers */
  answersRequestId?: string;
  /** files this visitor uploaded to this conversation and has not sent yet, in order */
  attachmentIds?: string[];
  /** the site's cap on one message's files together (bytes); read with the site when there are files */
  attachmentMessageMaxBytes?: number;
}

/** A send as stored: the row's view, and whether this call stored it (false for a retry). */
export interface Sent {
  view: MessageView;
  isNew: boolean;
}

/**
 * How sends group. Each group holds one pooled connection for its round trips (five, and one more
 * for each further layer of a conversation's sends); three in flight leave the rest of the API's
 * pool (10) to every other request. A group takes up to 100
 * sends, up to PER_CONVERSATION of one conversation, stored in the order they came, one
 * statement for each conversation's first sends, one more for its second ones, and so on.
 * A conversation is in one group at a time, so with one send each, a conversation whose
 * visitor sends faster than a group commits waited a whole group per send: in the ingest bench
 * (64 visitors, 1,000 sends/s), while the worker stored 64 replies at once, sends queued
 * 150–235 ms for a group while the groups themselves took 20–55 ms.
 */
const GROUPS_IN_FLIGHT = 3;
const GROUP_MAX = 100;
const PER_CONVERSATION = 4;

const groups = new WeakMap<Services, GroupCommit<SendInput, Sent>>();

/** This process's send groups (one queue per set of services). */
export function sendGroups(s: Services): GroupCommit<SendInput, Sent> {
  let queue = groups.get(s);
  if (!queue) {
    queue = new GroupCommit((inputs) => storeSends(s, inputs), {
      maxGroup: GROUP_MAX,
      concurrency: GROUPS_IN_FLIGHT,
      keyOf: (input) => input.conversationId,
      perKey: PER_CONVERSATION,
      // an answer also closes a question, and files must all be this visitor's unsent ones: either
      // may refuse the send, so its transaction must be its own
      solo: (input) => input.answersRequestId !== undefined || (input.attachmentIds?.length ?? 0) > 0,
    });
    groups.set(s, queue);
  }
  return queue;
}

/**
 * Stores a group of sends (at most one per conversation) in ONE transaction with their events:
 * lock the conversations, one statement for every row (idempotency, caps, insert, activity,
 * fallback title, and the view's parts), one for the events. Each send gets its own outcome:
 * a refusal (not found, a full pending batch) answers that send alone and the rest commit.
 *
 * The transaction runs on the pool's own connection (db/raw-sql.ts), past Prisma's client: its
 * five statements sit on the ingest bench's path, and through Prisma each cost ~0.35 ms more CPU,
 * plus its interactive transaction's bookkeeping. A retried send's stored row is read
 * through the ORM after the commit ({@link answerRetries}).
 */
async function storeSends(s: Services, inputs: SendInput[]): Promise<ItemOutcome<Sent>[]> {
  s.metrics.sendGroup.observe(inputs.length);
  const outcomes = await transactRawWithEvents(s.sql, s.bus, async (tx, emit) => {
    // a group of one waits for its conversation's lock; a group of several skips what another
    // transaction (a claim, a stored reply) holds, and those sends go again, alone
    const locked = await lockConversations(tx, inputs, { wait: inputs.length === 1 });
    // by conversation AND sender: a send to another visitor's conversation may share the group with its owner's
    const found = inputs.filter((i) => locked.has(ownerKey(i)));
    const missing = inputs.filter((i) => !locked.has(ownerKey(i)));
    const owners = missing.length > 0 ? await ownersOf(tx, missing) : { conversations: new Set<string>(), visitors: new Set<string>() };
    const stored = await insertInLayers(tx, s.config, found);
    const outcomes = new Map<SendInput, GroupOutcome>();
    for (const input of missing) {
      if (owners.conversations.has(input.conversationId)) {
        outcomes.set(input, { kind: 'busy' });
        continue;
      }
      // the conversation is not this visitor's; and a visitor deleted since its token was signed is no visitor at all
      const error = owners.visitors.has(input.visitorId) ? conversationNotFound() : visitorTokenInvalid();
      outcomes.set(input, { kind: 'failed', error });
    }
    for (const input of found) {
      const sent = stored.get(input)!;
      if (sent.kind === 'full') {
        outcomes.set(input, {
          kind: 'failed',
          error: refuse(
            'too_many_requests',
            'pending_batch_full',
            'Too much is waiting for a reply in this conversation. Wait for the reply, then send again.',
          ),
        });
        continue;
      }
      if (sent.kind === 'stored') {
        outcomes.set(input, { kind: 'retry' });
        continue;
      }
      let conversation = sent.conversation;
      let message = sent.message;
      if (input.attachmentIds?.length) {
        // a solo send: a refusal here rolls its own transaction back, and the files stay unsent
        const attachments = await bindAttachments(tx, {
          conversationId: input.conversationId,
          messageId: message.id,
          ids: input.attachmentIds,
          sender: { visitorId: input.visitorId },
          messageMaxBytes: input.attachmentMessageMaxBytes ?? Number.POSITIVE_INFINITY,
        });
        message = { ...message, attachments };
      }
      if (input.answersRequestId) {
        // a solo send: a refusal here rolls its own transaction back
        await answerRequest(tx, { conversationId: input.conversationId, requestId: input.answersRequestId, messageId: sent.message.id });
        // the question just closed: read the view again (rare, so its own statement is fine here)
        conversation = await conversationView(tx, input.conversationId);
      }
      emit(input.visitorId, { type: 'message.created', conversationId: input.conversationId, message });
      emit(input.visitorId, { type: 'conversation.updated', conversationId: input.conversationId, conversation });
      outcomes.set(input, { kind: 'done', value: { view: message, isNew: true } });
    }
    return inputs.map((input) => outcomes.get(input)!);
  });
  return answerRetries(s.db, inputs, outcomes);
}

/**
 * Stores the sends in layers: the first send of each conversation in one statement, the second
 * ones in the next, and so on, so each statement holds one send per conversation and sees the
 * ones before it (its pending cap counts them, its rows come after them).
 */
async function insertInLayers(tx: RawSql, config: Config, inputs: SendInput[]): Promise<Map<SendInput, Stored>> {
  const layers: SendInput[][] = [];
  const depth = new Map<string, number>();
  for (const input of inputs) {
    const d = depth.get(input.conversationId) ?? 0;
    depth.set(input.conversationId, d + 1);
    (layers[d] ??= []).push(input);
  }
  const stored = new Map<SendInput, Stored>();
  for (const layer of layers) {
    const rows = await insertPending(tx, config, layer);
    layer.forEach((input, i) => stored.set(input, rows[i]!));
  }
  return stored;
}

/** A send's outcome inside the transaction: a retry's row is read after the commit. */
type GroupOutcome = ItemOutcome<Sent> | { kind: 'retry' };

const conversationNotFound = () => notFound('conversation');

/**
 * Answers the retried sends of a committed group with their stored rows: read through the ORM
 * with the one `messageSelect` (rare, so one query for them all, after the commit: the ORM cannot
 * run in the raw transaction). The row is committed, and may have moved on since (claimed,
 * answered): a retry returns it as it is now. A row gone meanwhile (its conversation deleted)
 * answers that send NOT_FOUND; a failed read fails the retries alone, never the group's new sends.
 */
async function answerRetries(db: Db, inputs: SendInput[], outcomes: GroupOutcome[]): Promise<ItemOutcome<Sent>[]> {
  const retries = inputs.filter((_, i) => outcomes[i]!.kind === 'retry');
  const stored =
    retries.length > 0 ? await storedMessages(db, retries).catch((error: unknown) => ({ error })) : new Map<string, MessageView>();
  return outcomes.map((outcome, i): ItemOutcome<Sent> => {
    if (outcome.kind !== 'retry') return outcome;
    if (!(stored instanceof Map)) return { kind: 'failed', error: stored.error };
    const view = stored.get(retryKey(inputs[i]!.conversationId, inputs[i]!.clientMessageId));
    return view ? { kind: 'done', value: { view, isNew: false } } : { kind: 'failed', error: conversationNotFound() };
  });
}

/** The stored rows of retried sends, by {@link retryKey}. */
async function storedMessages(db: Db, retries: SendInput[]): Promise<Map<string, MessageView>> {
  const rows = await db.message.findMany({
    where: { OR: retries.map((i) => ({ conversationId: i.conversationId, clientMessageId: i.clientMessageId })) },
    select: messageSelect,
  });
  return new Map(rows.map((row) => [retryKey(row.conversationId, row.clientMessageId), toMessageView(row)]));
}

/** A send's idempotency key: the row's unique key (conversation, `clientMessageId`). */
const retryKey = (conversationId: string, clientMessageId: string | null) => `${conversationId} ${clientMessageId}`;

/** The conversation's view in the transaction, read again after a change the send statement did not see. */
async function conversationView(tx: RawSql, conversationId: string): Promise<ConversationView> {
  const [row] = await tx.rows<ViewRow>(conversationViewSql(conversationId));
  // the conversation is locked by this transaction: it cannot be gone
  if (!row) throw new Error(`No Conversation found: ${conversationId}`);
  return viewOfRow(row);
}

/** A send's conversation and sender, as {@link lockConversations} answers the locked ones. */
const ownerKey = (s: { conversationId: string; visitorId: string }) => `${s.conversationId} ${s.visitorId}`;

/**
 * Row locks, taken in id order (two groups never wait on each other crosswise): the sends of
 * one conversation serialize here (claims take the same lock), so the pending cap holds under
 * concurrent sends. Its own statement, so the next one reads every send committed while this
 * one waited (a statement's snapshot predates its locks). Answers the conversations locked
 * that belong to the sending visitor, as {@link ownerKey}s. Without `wait`, rows another transaction holds are
 * skipped: a worker storing a reply holds its conversation for a few round trips, and a
 * group that waited would hold every other send of the group that long.
 */
async function lockConversations(tx: RawSql, inputs: SendInput[], opts: { wait: boolean }): Promise<Set<string>> {
  const conversations = inputs.map((i) => i.conversationId);
  const visitors = inputs.map((i) => i.visitorId);
  const rows = await tx.rows<{ id: string; visitorId: string }>(Prisma.sql`
    SELECT i.c AS id, i.v AS "visitorId" FROM "Conversation" AS conv
    JOIN unnest(${conversations}::text[], ${visitors}::text[]) AS i(c, v) ON conv.id = i.c::uuid AND conv."visitorId" = i.v::uuid
    ORDER BY conv.id
    FOR NO KEY UPDATE OF conv ${opts.wait ? Prisma.empty : Prisma.sql`SKIP LOCKED`}`);
  return new Set(rows.map((r) => ownerKey({ conversationId: r.id, visitorId: r.visitorId })));
}

/**
 * For sends whose conversation was not locked: which of those conversations are the sender's
 * after all (locked by someone else: busy), and which senders still exist. Asked only then.
 */
async function ownersOf(tx: RawSql, inputs: SendInput[]): Promise<{ conversations: Set<string>; visitors: Set<string> }> {
  const rows = await tx.rows<{ conversationId: string | null; visitorId: string | null }>(Prisma.sql`
    SELECT conv.id::text AS "conversationId", NULL AS "visitorId" FROM "Conversation" AS conv
    JOIN unnest(${inputs.map((i) => i.conversationId)}::text[], ${inputs.map((i) => i.visitorId)}::text[]) AS i(c, v)
      ON conv.id = i.c::uuid AND conv."visitorId" = i.v::uuid
    UNION ALL
    SELECT NULL, id::text FROM "Visitor" WHERE id = ANY(${inputs.map((i) => i.visitorId)}::text[]::uuid[])`);
  return {
    conversations: new Set(rows.flatMap((r) => (r.conversationId ? [r.conversationId] : []))),
    visitors: new Set(rows.flatMap((r) => (r.visitorId ? [r.visitorId] : []))),
  };
}

type Stored = { kind: 'stored' } | { kind: 'full' } | { kind: 'inserted'; message: MessageView; conversation: ConversationView };

/**
 * What `insertPending` reads back per send: the new row, the conversation after the send, and its
 * view's parts, as pg types them (the one int8, `seq`, travels as text; json arrives parsed).
 */
interface SendRow {
  n: number;
  storedId: string | null;
  messages: number;
  chars: number;
  id: string | null;
  seq: string | null;
  sentAt: Date | null;
  title: string | null;
  titleSource: 'first_message' | 'generated' | 'manual' | 'fixed' | null;
  excerpt: string | null;
  lastAssistantAt: Date | null;
  lastReadAt: Date | null;
  createdAt: Date;
  waitingSince: Date | null;
  private: boolean;
  heldByName: string | null;
  status: 'open' | 'resolved' | 'snoozed';
  snoozedUntil: Date | null;
  resolvedAt: Date | null;
  rating: number | null;
  ratedAt: Date | null;
  runId: string | null;
  runStatus: string | null;
  runLeaseUntil: Date | null;
  runProactiveId: string | null;
  requestId: string | null;
  question: string | null;
  choices: string[] | null;
  allowFreeText: boolean | null;
  requestCreatedAt: Date | null;
  todos: { id: string; text: string; createdAt: string }[] | string;
}

/**
 * In ONE statement for the whole group, under the conversations' row locks: is each
 * `clientMessageId` stored already (a retry), is there room in its pending batch, and if so
 * insert the row, move the conversation's activity time (and give it its fallback title when
 * it has none), and read what its `conversation.updated` view needs (the latest run, the open
 * question, open todos, who holds it), so the view costs no further round trips. The rules
 * stay where they live: the caps here in the WHERE, the view in `toConversationView`.
 * One send per conversation (insertInLayers), so joins by conversation are one-to-one.
 */
async function insertPending(tx: RawSql, config: Config, inputs: SendInput[]): Promise<Stored[]> {
  const rows = await tx.rows<SendRow>(Prisma.sql`
    WITH input AS (
      SELECT i.c::uuid AS c, i.v::uuid AS v, i.cmid, i.content, i.title, i.n
      FROM unnest(
        ${inputs.map((i) => i.conversationId)}::text[], ${inputs.map((i) => i.visitorId)}::text[], ${inputs.map((i) => i.clientMessageId)}::text[],
        ${inputs.map((i) => i.content)}::text[], ${inputs.map((i) => fallbackTitle(i.content) || null)}::text[]
      ) WITH ORDINALITY AS i(c, v, cmid, content, title, n)
    ), stored AS (
      SELECT i.n, m.id FROM input AS i JOIN "Message" AS m ON m."conversationId" = i.c AND m."clientMessageId" = i.cmid
    ), held AS (
      -- everything the next final turn may hold: pending, claimed by a run, or failed
      SELECT i.n, h.messages, h.chars FROM input AS i CROSS JOIN LATERAL (
        SELECT count(*)::int AS messages, coalesce(sum(char_length(content)), 0)::int AS chars
        FROM "Message" WHERE "conversationId" = i.c AND role = 'user' AND state IN ('pending', 'claimed', 'failed')
      ) AS h
    ), inserted AS (
      INSERT INTO "Message" (id, "conversationId", "visitorId", role, content, "clientMessageId", state)
      SELECT gen_random_uuid(), i.c, i.v, 'user', i.content, i.cmid, 'pending'
      FROM input AS i JOIN held AS h ON h.n = i.n
      WHERE NOT EXISTS (SELECT 1 FROM stored WHERE stored.n = i.n)
        AND h.messages + 1 <= ${config.PENDING_MAX_MESSAGES}
        AND h.chars + char_length(i.content) <= ${config.PENDING_MAX_CHARS}
      ORDER BY i.n
      -- the row lock already serializes retries of one key; ON CONFLICT keeps the unique key the last word
      ON CONFLICT ("conversationId", "clientMessageId") DO NOTHING
      RETURNING id, seq, "createdAt", "conversationId"
    ), touched AS (
      UPDATE "Conversation" AS conv SET
        "updatedAt" = ins."createdAt",
        -- the visitor wrote: a resolved or snoozed conversation is the team's again
        status = 'open', "snoozedUntil" = NULL,
        -- a message of files alone (no words) gives no title: titles never see attachments
        title = coalesce(conv.title, i.title),
        "titleSource" = CASE WHEN conv.title IS NULL AND i.title IS NOT NULL THEN 'first_message' ELSE conv."titleSource" END,
        "titleState" = CASE WHEN conv.title IS NULL AND i.title IS NOT NULL THEN 'pending' ELSE conv."titleState" END
      FROM inserted AS ins JOIN input AS i ON i.c = ins."conversationId"
      WHERE conv.id = ins."conversationId"
      RETURNING conv.id, conv.title, conv."titleSource"::text AS "titleSource", conv.excerpt, conv."lastAssistantAt", conv."lastReadAt",
        conv."createdAt", conv."waitingSince", conv.private, conv."heldById",
        conv.status::text AS status, conv."snoozedUntil", conv."resolvedAt", conv.rating, conv."ratedAt"
    )
    SELECT i.n::int AS n, (SELECT id FROM stored WHERE stored.n = i.n) AS "storedId", h.messages, h.chars,
      ins.id, ins.seq::text AS seq, ins."createdAt" AS "sentAt",
      t.title, t."titleSource", t.excerpt, t."lastAssistantAt", t."lastReadAt", t."createdAt", t."waitingSince", t.private,
      t.status, t."snoozedUntil", t."resolvedAt", t.rating, t."ratedAt",
      (SELECT name FROM "Operator" WHERE id = t."heldById") AS "heldByName",
      run.id AS "runId", run.status::text AS "runStatus", run."leaseUntil" AS "runLeaseUntil", run."proactiveId" AS "runProactiveId",
      request.id AS "requestId", request.question, request.choices, request."allowFreeText", request."createdAt" AS "requestCreatedAt",
      todo.todos
    FROM input AS i
    JOIN held AS h ON h.n = i.n
    LEFT JOIN inserted AS ins ON ins."conversationId" = i.c
    LEFT JOIN touched AS t ON t.id = i.c
    LEFT JOIN LATERAL (
      SELECT id, status, "leaseUntil", "proactiveId" FROM "Run" WHERE "conversationId" = i.c ORDER BY fence DESC LIMIT 1
    ) AS run ON true
    LEFT JOIN LATERAL (
      -- the newest, should there ever be two open
      SELECT id, question, choices, "allowFreeText", "createdAt" FROM "InputRequest"
      WHERE "conversationId" = i.c AND status = 'open' ORDER BY "createdAt" DESC LIMIT 1
    ) AS request ON true
    LEFT JOIN LATERAL (
      SELECT coalesce(json_agg(json_build_object('id', o.id, 'text', o.text, 'createdAt', o."createdAt") ORDER BY o."createdAt" DESC, o.id DESC), '[]') AS todos
      FROM (SELECT id, text, "createdAt" FROM "Todo" WHERE "conversationId" = i.c AND status = 'open'
            ORDER BY "createdAt" DESC, id DESC LIMIT ${VIEW_TODOS_MAX}) AS o
    ) AS todo ON true
    ORDER BY i.n`);
  if (rows.length !== inputs.length) throw new Error(`the send statement returned ${rows.length} rows for ${inputs.length} sends`);
  return rows.map((row, i) => toStored(config, inputs[i]!, row));
}

function toStored(config: Config, input: SendInput, row: SendRow): Stored {
  const c = input.conversationId;
  if (row.storedId !== null) return { kind: 'stored' };
  if (row.id === null || row.seq === null || row.sentAt === null) {
    // nothing inserted and nothing stored before: over a cap, or a same-key send won the unique key
    const over = row.messages + 1 > config.PENDING_MAX_MESSAGES || row.chars + Array.from(input.content).length > config.PENDING_MAX_CHARS;
    return { kind: over ? 'full' : 'stored' };
  }
  const message = toMessageView({
    id: row.id,
    seq: BigInt(row.seq),
    conversationId: c,
    role: 'user',
    content: input.content,
    clientMessageId: input.clientMessageId,
    state: 'pending',
    provenance: null,
    provenanceLabel: null,
    runId: null,
    error: null,
    cutShort: false,
    sources: null,
    createdAt: row.sentAt,
    inputRequest: null,
  });
  const todos = typeof row.todos === 'string' ? (JSON.parse(row.todos) as Exclude<SendRow['todos'], string>) : row.todos;
  const conversation = toConversationView({
    id: c,
    title: row.title,
    titleSource: row.titleSource,
    excerpt: row.excerpt,
    lastAssistantAt: row.lastAssistantAt,
    lastReadAt: row.lastReadAt,
    createdAt: row.createdAt,
    updatedAt: row.sentAt,
    waitingSince: row.waitingSince,
    private: row.private,
    status: row.status,
    snoozedUntil: row.snoozedUntil,
    resolvedAt: row.resolvedAt,
    rating: row.rating,
    ratedAt: row.ratedAt,
    heldBy: row.heldByName === null ? null : { name: row.heldByName },
    runs:
      row.runId === null
        ? []
        : [{ id: row.runId, status: row.runStatus as RunStatus, leaseUntil: row.runLeaseUntil!, proactiveId: row.runProactiveId }],
    inputRequest:
      row.requestId === null
        ? null
        : {
            conversationId: c,
            id: row.requestId,
            question: row.question!,
            choices: row.choices ?? [],
            allowFreeText: row.allowFreeText!,
            createdAt: row.requestCreatedAt!,
          },
    todos: todos.map((t) => ({ conversationId: c, id: t.id, text: t.text, createdAt: new Date(t.createdAt) })),
    // the row just inserted is pending: a reply is on its way
    awaitingReply: true,
  });
  return { kind: 'inserted', message, conversation };
}

type RunStatus = Parameters<typeof toConversationView>[0]['runs'][number]['status'];

/** Links the answer to its request, only while the request is open (the WHERE is the rule). */
async function answerRequest(tx: RawSql, a: { conversationId: string; requestId: string; messageId: string }): Promise<void> {
  const n = await tx.count(Prisma.sql`
    UPDATE "InputRequest" SET status = 'answered', "answerMessageId" = ${a.messageId}::uuid, "closedAt" = now()
    WHERE id = ${a.requestId}::uuid AND "conversationId" = ${a.conversationId}::uuid AND status = 'open'`);
  if (n === 1) return;
  // not open: closed already, or no request of this conversation at all
  const [request] = await tx.rows<{ found: boolean }>(Prisma.sql`
    SELECT EXISTS (SELECT 1 FROM "InputRequest" WHERE id = ${a.requestId}::uuid AND "conversationId" = ${a.conversationId}::uuid) AS found`);
  if (!request?.found) throw notFound('input request');
  throw refuse('bad_request', null, 'this question was already answered');
}
