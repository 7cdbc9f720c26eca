import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { Db } from '../db/client.ts';
import { buildContext, historyWindow, type ContextInput, type ContextRequest, type ContextRow } from './build-context.ts';
import type { ClaimedBatch } from './claim-batch.ts';
import { TODOS_SHOWN_MAX } from './context-sections.ts';
import { recallFrom, recentFrom } from './recall.ts';
import type { ProactiveBrief } from '../proactive/proactive-section.ts';

/** How many earlier messages are read before the token budget trims them. */
const HISTORY_ROWS = 200;

const rowSelect = { id: true, seq: true, role: true, content: true, provenance: true, provenanceLabel: true, state: true, error: true, createdAt: true } as const;
const requestSelect = {
  toolCallId: true,
  messageId: true,
  question: true,
  choices: true,
  allowFreeText: true,
  status: true,
  answerMessageId: true,
  createdAt: true,
} as const;

/**
 * Reads what the context builder needs for one run (history, the input requests those rows
 * ask or answer plus the open one, open todos, recall hits for the whole batch) and builds the
 * model's messages. `systemPrompt` defaults to Heed's own (a site's adds its instructions).
 */
export async function loadContext(db: Db, batch: ClaimedBatch, tokenBudget: number, systemPrompt?: string): Promise<ChatCompletionMessageParam[]> {
  return buildContext({ ...(await readContext(db, batch, tokenBudget)), systemPrompt });
}

/** Everything {@link buildContext} takes but the system prompt: what a run reads from the database. */
export type ContextReads = Omit<ContextInput, 'systemPrompt'>;

/**
 * The reads of {@link loadContext} without the build, so a run can read them while it reads its
 * site's settings (which carry the system prompt). Two waves of round trips: everything that
 * needs only the batch (the recall range included), then what needs the history window (the input
 * requests of its rows, the recall ranking). Issue 11: recall's range walk in the second wave made
 * it three waves in a row, about 2 ms of the debounce bench's claim → model request on an idle
 * machine, 5 under load.
 */
export async function readContext(db: Db, batch: ClaimedBatch, tokenBudget: number): Promise<ContextReads> {
  const texts = (rows: readonly ContextRow[]) => rows.map((r) => r.content);
  const [visitor, claimed, earlier, todos, from] = await Promise.all([
    db.visitor.findUniqueOrThrow({ where: { id: batch.visitorId }, select: { timeZone: true, siteId: true } }),
    db.message.findMany({ where: { id: { in: batch.messageIds } }, select: rowSelect, orderBy: { seq: 'asc' } }),
    db.message.findMany({
      where: { conversationId: batch.conversationId, seq: { lte: batch.watermark } },
      orderBy: { seq: 'desc' },
      take: HISTORY_ROWS,
      select: rowSelect,
    }),
    db.todo.findMany({
      where: { conversationId: batch.conversationId, status: 'open' },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      take: TODOS_SHOWN_MAX + 1,
      select: { id: true, text: true, createdAt: true },
    }),
    recentFrom(db, batch.visitorId),
  ]);
  const rows = earlier as ContextRow[];
  const batchRows = claimed as ContextRow[];
  const ids = [...rows, ...batchRows].map((r) => r.id);
  const window = historyWindow({ rows, claimed: batchRows, watermark: batch.watermark, tokenBudget });
  const windowStartSeq = window[0]?.seq ?? batchRows[0]?.seq ?? batch.watermark + 1n;
  const [requests, hits] = await Promise.all([
    db.inputRequest.findMany({
      where: { conversationId: batch.conversationId, OR: [{ messageId: { in: ids } }, { answerMessageId: { in: ids } }, { status: 'open' }] },
      select: requestSelect,
    }),
    recallFrom(db, { visitorId: batch.visitorId, siteId: visitor.siteId, conversationId: batch.conversationId, windowStartSeq }, texts(batchRows), from),
  ]);
  return {
    rows,
    claimed: batchRows,
    watermark: batch.watermark,
    timeZone: visitor.timeZone,
    tokenBudget,
    requests: requests as ContextRequest[],
    todos,
    recall: hits,
    proactive: proactiveBrief(batch),
  };
}

/** What the model is told about an unsolicited message this run writes (null for a reply). */
function proactiveBrief(batch: ClaimedBatch): ProactiveBrief | null {
  const p = batch.proactive;
  if (!p) return null;
  if (p.kind === 'check_in') return { kind: 'check_in', silentMinutes: p.silentMinutes ?? 0 };
  if (p.kind === 'intent' && p.intent) return { kind: 'intent', name: p.intent.name, label: p.label, instruction: p.intent.instruction, data: p.intent.data };
  return null;
}
