import { TRPCError } from '@trpc/server';
import type { Config } from '../config.ts';
import type { Redis } from '../redis/client.ts';
import type { Services } from '../services.ts';
import type { Tx } from '../db/types.ts';
import { transactWithEvents } from '../events/append-events.ts';
import { fallbackTitle } from '../titles/fallback-title.ts';
import { refuse } from '../trpc/refusal.ts';
import { loadConversationView } from './queries.ts';
import { messageSelect, toConversationView, toMessageView, VIEW_TODOS_MAX, type MessageView } from './views.ts';

export interface SendInput {
  visitorId: string;
  conversationId: string;
  clientMessageId: string;
  content: string;
  /** the open input request of this conversation that this message answers */
  answersRequestId?: string;
}

/**
 * Puts a visitor's message in the outbox: a durable `pending` row, committed with its event
 * before the call returns. Idempotent on `clientMessageId`: a retried send (even two at
 * once) returns the same row and schedules nothing new. The first message also becomes
 * the fallback title. Workers are woken after commit; the batch is due after the debounce.
 *
 * With `answersRequestId` the message also answers the conversation's open question, in the
 * same transaction: the request becomes `answered` (so input needed clears at once, before the
 * answering run even starts) and the next run hands the text to the model as that tool call's
 * result. NOT_FOUND for a request of another conversation; BAD_REQUEST once it is closed (a
 * racing second answer loses on the row lock and stores nothing).
 *
 * A conversation holds at most PENDING_MAX_MESSAGES unanswered messages of PENDING_MAX_CHARS
 * characters together (they all become the next prompt's final turn, which no token budget
 * trims): a send beyond either is refused with TOO_MANY_REQUESTS `pending_batch_full` and
 * stores nothing. A retry of a message already stored still returns it.
 *
 * Five round trips (BEGIN, the row lock, `insertPending`, the events, COMMIT) where it took
 * seventeen: each trip through the ORM costs CPU and holds a pooled connection longer. Called
 * in-process by 64 concurrent loops on the shared two-core machine, 20.7 → 7.5 ms of CPU per
 * send, and no more P2028 (no connection within Prisma's 2 s) under load (bench/ingest.ts).
 */
export async function sendMessage(s: Services, input: SendInput): Promise<MessageView> {
  const message = await transactWithEvents(s.db, s.bus, async (tx, emit) => {
    // Row lock: the sends of one conversation serialize here (claims take the same lock), so
    // the pending cap holds under concurrent sends. Its own statement, so the next one reads
    // every send committed while this one waited (a statement's snapshot predates its locks).
    const [conv] = await tx.$queryRaw<{ id: string }[]>`
      SELECT id FROM "Conversation"
      WHERE id = ${input.conversationId}::uuid AND "visitorId" = ${input.visitorId}::uuid
      FOR NO KEY UPDATE`;
    if (!conv) throw new TRPCError({ code: 'NOT_FOUND', message: 'conversation not found' });
    const sent = await insertPending(tx, s.config, input);
    if (sent.kind === 'full') {
      throw refuse('TOO_MANY_REQUESTS', 'pending_batch_full', 'Too much is waiting for a reply in this conversation. Wait for the reply, then send again.');
    }
    if (sent.kind === 'stored') return { view: await storedMessage(tx, input), isNew: false };
    let conversation = sent.conversation;
    if (input.answersRequestId) {
      await answerRequest(tx, { conversationId: input.conversationId, requestId: input.answersRequestId, messageId: sent.message.id });
      // the question just closed: read the view again (rare, so the ORM's several reads are fine here)
      conversation = await loadConversationView(tx, input.conversationId);
    }
    emit(input.visitorId, { type: 'message.created', conversationId: input.conversationId, message: sent.message });
    emit(input.visitorId, { type: 'conversation.updated', conversationId: input.conversationId, conversation });
    return { view: sent.message, isNew: true };
  });
  if (message.isNew) {
    s.metrics.sends.inc();
    await wakeWorkers(s, input.conversationId);
  }
  return message.view;
}

/** Schedule wake-ups per Redis client: the one being published, and the next one if sends committed meanwhile. */
const wakes = new WeakMap<Redis, { sending: Promise<void> | null; next: Promise<void> | null; conversationId: string }>();

/**
 * Tells the workers a batch was scheduled. Workers only re-read which batches are due (the
 * message's conversation id is informational), so sends that commit while a wake-up is being
 * published share the next one: at 64 concurrent visitors that is one publish per Redis round
 * trip instead of one per send, and each wake-up costs every worker a due-batches query.
 * Resolves once a wake-up published after this send's commit went out (a failure rejects it).
 */
function wakeWorkers(s: Services, conversationId: string): Promise<void> {
  let wake = wakes.get(s.redis);
  if (!wake) wakes.set(s.redis, (wake = { sending: null, next: null, conversationId }));
  const w = wake;
  w.conversationId = conversationId;
  const publish = (): Promise<void> => {
    w.next = null;
    const sending = s.redis.publish(s.keys.scheduleChannel(), w.conversationId).then(() => undefined);
    w.sending = sending;
    const settle = () => {
      if (w.sending === sending) w.sending = null;
    };
    sending.then(settle, settle);
    return sending;
  };
  if (!w.sending) return publish();
  w.next ??= w.sending.then(publish, publish);
  return w.next;
}

type Sent =
  | { kind: 'stored' }
  | { kind: 'full' }
  | { kind: 'inserted'; message: MessageView; conversation: ReturnType<typeof toConversationView> };

/** What `insertPending` reads back: the new row, the conversation after the send, and its view's parts. */
interface SendRow {
  storedId: string | null;
  messages: number;
  chars: number;
  id: string | null;
  seq: bigint | null;
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
 * In ONE statement, under the conversation's row lock: is this `clientMessageId` stored already
 * (a retry), is there room in the pending batch, and if so insert the row, move the
 * conversation's activity time (and give it its fallback title when it has none), and read
 * what its `conversation.updated` view needs (the latest run, the open question, open todos,
 * who holds it), so the view costs no further round trips. The rules stay where they live:
 * the caps here in the WHERE, the view in `toConversationView`.
 */
async function insertPending(tx: Tx, config: Config, input: SendInput): Promise<Sent> {
  const c = input.conversationId;
  const [row] = await tx.$queryRaw<SendRow[]>`
    WITH stored AS (
      SELECT id FROM "Message" WHERE "conversationId" = ${c}::uuid AND "clientMessageId" = ${input.clientMessageId}
    ), held AS (
      -- everything the next final turn may hold: pending, claimed by a run, or failed
      SELECT count(*)::int AS messages, coalesce(sum(char_length(content)), 0)::int AS chars
      FROM "Message" WHERE "conversationId" = ${c}::uuid AND role = 'user' AND state IN ('pending', 'claimed', 'failed')
    ), inserted AS (
      INSERT INTO "Message" (id, "conversationId", "visitorId", role, content, "clientMessageId", state)
      SELECT gen_random_uuid(), ${c}::uuid, ${input.visitorId}::uuid, 'user', ${input.content}, ${input.clientMessageId}, 'pending'
      FROM held
      WHERE NOT EXISTS (SELECT 1 FROM stored)
        AND held.messages + 1 <= ${config.PENDING_MAX_MESSAGES}
        AND held.chars + char_length(${input.content}) <= ${config.PENDING_MAX_CHARS}
      -- the row lock already serializes retries of one key; ON CONFLICT keeps the unique key the last word
      ON CONFLICT ("conversationId", "clientMessageId") DO NOTHING
      RETURNING id, seq, "createdAt"
    ), touched AS (
      UPDATE "Conversation" AS conv SET
        "updatedAt" = inserted."createdAt",
        title = coalesce(conv.title, ${fallbackTitle(input.content)}),
        "titleSource" = CASE WHEN conv.title IS NULL THEN 'first_message' ELSE conv."titleSource" END,
        "titleState" = CASE WHEN conv.title IS NULL THEN 'pending' ELSE conv."titleState" END
      FROM inserted WHERE conv.id = ${c}::uuid
      RETURNING conv.title, conv."titleSource"::text AS "titleSource", conv.excerpt, conv."lastAssistantAt", conv."lastReadAt",
        conv."createdAt", conv."waitingSince", conv.private, conv."heldById"
    )
    SELECT (SELECT id FROM stored) AS "storedId", held.messages, held.chars,
      inserted.id, inserted.seq, inserted."createdAt" AS "sentAt",
      touched.title, touched."titleSource", touched.excerpt, touched."lastAssistantAt", touched."lastReadAt",
      touched."createdAt", touched."waitingSince", touched.private,
      (SELECT name FROM "Operator" WHERE id = touched."heldById") AS "heldByName",
      run.id AS "runId", run.status::text AS "runStatus", run."leaseUntil" AS "runLeaseUntil", run."proactiveId" AS "runProactiveId",
      request.id AS "requestId", request.question, request.choices, request."allowFreeText", request."createdAt" AS "requestCreatedAt",
      (SELECT coalesce(json_agg(json_build_object('id', t.id, 'text', t.text, 'createdAt', t."createdAt") ORDER BY t."createdAt" DESC, t.id DESC), '[]')
       FROM (SELECT id, text, "createdAt" FROM "Todo" WHERE "conversationId" = ${c}::uuid AND status = 'open'
             ORDER BY "createdAt" DESC, id DESC LIMIT ${VIEW_TODOS_MAX}) AS t) AS todos
    FROM held
    LEFT JOIN inserted ON true
    LEFT JOIN touched ON true
    LEFT JOIN LATERAL (
      SELECT id, status, "leaseUntil", "proactiveId" FROM "Run" WHERE "conversationId" = ${c}::uuid ORDER BY fence DESC LIMIT 1
    ) AS run ON true
    LEFT JOIN LATERAL (
      -- the newest, should there ever be two open
      SELECT id, question, choices, "allowFreeText", "createdAt" FROM "InputRequest"
      WHERE "conversationId" = ${c}::uuid AND status = 'open' ORDER BY "createdAt" DESC LIMIT 1
    ) AS request ON true`;
  if (!row) throw new Error('the send statement returned no row');
  if (row.storedId !== null) return { kind: 'stored' };
  if (row.id === null || row.seq === null || row.sentAt === null) {
    // nothing inserted and nothing stored before: over a cap, or a same-key send won the unique key
    const over = row.messages + 1 > config.PENDING_MAX_MESSAGES || row.chars + Array.from(input.content).length > config.PENDING_MAX_CHARS;
    return { kind: over ? 'full' : 'stored' };
  }
  const message = toMessageView({
    id: row.id,
    seq: row.seq,
    conversationId: c,
    role: 'user',
    content: input.content,
    clientMessageId: input.clientMessageId,
    state: 'pending',
    provenance: null,
    provenanceLabel: null,
    runId: null,
    error: null,
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
    heldBy: row.heldByName === null ? null : { name: row.heldByName },
    runs: row.runId === null ? [] : [{ id: row.runId, status: row.runStatus as RunStatus, leaseUntil: row.runLeaseUntil!, proactiveId: row.runProactiveId }],
    inputRequest:
      row.requestId === null
        ? null
        : { conversationId: c, id: row.requestId, question: row.question!, choices: row.choices ?? [], allowFreeText: row.allowFreeText!, createdAt: row.requestCreatedAt! },
    todos: todos.map((t) => ({ conversationId: c, id: t.id, text: t.text, createdAt: new Date(t.createdAt) })),
    // the row just inserted is pending: a reply is on its way
    awaitingReply: true,
  });
  return { kind: 'inserted', message, conversation };
}

type RunStatus = Parameters<typeof toConversationView>[0]['runs'][number]['status'];

/** The row a retried send returns (rare: read through the ORM with the one `messageSelect`). */
async function storedMessage(tx: Tx, input: SendInput): Promise<MessageView> {
  const row = await tx.message.findUniqueOrThrow({
    where: { conversationId_clientMessageId: { conversationId: input.conversationId, clientMessageId: input.clientMessageId } },
    select: messageSelect,
  });
  return toMessageView(row);
}

/** Links the answer to its request, only while the request is open (the WHERE is the rule). */
async function answerRequest(tx: Tx, a: { conversationId: string; requestId: string; messageId: string }): Promise<void> {
  const n = await tx.$executeRaw`
    UPDATE "InputRequest" SET status = 'answered', "answerMessageId" = ${a.messageId}::uuid, "closedAt" = now()
    WHERE id = ${a.requestId}::uuid AND "conversationId" = ${a.conversationId}::uuid AND status = 'open'`;
  if (n === 1) return;
  const exists = await tx.inputRequest.count({ where: { id: a.requestId, conversationId: a.conversationId } });
  if (exists === 0) throw new TRPCError({ code: 'NOT_FOUND', message: 'input request not found' });
  throw new TRPCError({ code: 'BAD_REQUEST', message: 'this question was already answered' });
}
