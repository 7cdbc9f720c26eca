import type { RecordedRequest, Responder, ScriptedReply } from '../../api/src/model-server/types.ts';
import type { TestHeed, TestVisitor } from './harness.ts';

/** A title request is the one structured (json_schema) call; replies are streamed. */
export const isTitleRequest = (req: RecordedRequest): boolean =>
  (req.body.response_format as { type?: string } | undefined)?.type === 'json_schema';

export const titleRequests = (heed: TestHeed): RecordedRequest[] => heed.model.requests.filter(isTitleRequest);
export const replyRequests = (heed: TestHeed): RecordedRequest[] => heed.model.requests.filter((r) => !isTitleRequest(r));

/** The model's structured answer to a title request. */
export const titleAnswer = (title: string, changed = true): ScriptedReply => ({ text: JSON.stringify({ title, changed }) });

/** The data object a title request carries as its user message. */
export function titleData(req: RecordedRequest): { current_title: string | null; first_messages: string[]; latest_messages: string[] } {
  const user = req.body.messages?.find((m) => m.role === 'user');
  return JSON.parse(String(user?.content));
}

/** Replies stream `reply`; title requests get what `title` answers. */
export function titleAwareResponder(title: Responder, reply: ScriptedReply = { text: 'Sure, happy to help with that.' }): Responder {
  return (req) => (isTitleRequest(req) ? title(req) : reply);
}

/** Sends `content` and resolves once its reply is stored (the reply that requests a title). */
export async function sendAndAwaitReply(heed: TestHeed, visitor: TestVisitor, conversationId: string, content: string): Promise<void> {
  const db = heed.services.db;
  const before = await db.message.count({ where: { conversationId, role: 'assistant' } });
  await visitor.send(conversationId, content);
  await heed.until('the reply', async () => (await db.message.count({ where: { conversationId, role: 'assistant' } })) > before);
}

/** The title columns of a conversation, as the database holds them. */
export function titleRow(heed: TestHeed, conversationId: string) {
  return heed.services.db.conversation.findUniqueOrThrow({
    where: { id: conversationId },
    select: {
      title: true,
      titleSource: true,
      titleState: true,
      titleRequestedAt: true,
      titleAttempts: true,
      titleLeaseUntil: true,
      updatedAt: true,
    },
  });
}

export function titleChecks(heed: TestHeed, conversationId: string) {
  return heed.services.db.titleCheck.findMany({ where: { conversationId }, orderBy: { createdAt: 'asc' } });
}

/**
 * Before each titles test: a fresh model script, and no title request left open by an
 * earlier test, so every test counts only its own claims and model calls.
 */
export async function resetTitleState(heed: TestHeed): Promise<void> {
  heed.model.reset();
  await heed.services.db.$executeRaw`UPDATE "Conversation" SET "titleRequestedAt" = NULL`;
}
