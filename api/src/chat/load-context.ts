import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { Db } from '../db/client.ts';
import { buildContext, type ContextRow } from './build-context.ts';
import type { ClaimedBatch } from './claim-batch.ts';

/** How many earlier messages are read before the token budget trims them. */
const HISTORY_ROWS = 200;

const rowSelect = { id: true, seq: true, role: true, content: true, state: true, error: true, createdAt: true } as const;

/** Reads what the context builder needs for one run and builds the model's messages. */
export async function loadContext(db: Db, batch: ClaimedBatch, tokenBudget: number): Promise<ChatCompletionMessageParam[]> {
  const [visitor, claimed] = await Promise.all([
    db.visitor.findUniqueOrThrow({ where: { id: batch.visitorId }, select: { timeZone: true } }),
    db.message.findMany({ where: { id: { in: batch.messageIds } }, select: rowSelect, orderBy: { seq: 'asc' } }),
  ]);
  const earlier = await db.message.findMany({
    where: { conversationId: batch.conversationId, seq: { lte: batch.watermark } },
    orderBy: { seq: 'desc' },
    take: HISTORY_ROWS,
    select: rowSelect,
  });
  return buildContext({ rows: earlier as ContextRow[], claimed: claimed as ContextRow[], watermark: batch.watermark, timeZone: visitor.timeZone, tokenBudget });
}
