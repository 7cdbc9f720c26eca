import type { TestHeed } from '../harness.ts';
import { replayReplies } from '../conversation-text.ts';
import type { DialectServer, Personality } from './dialect-server.ts';

/**
 * Sends one message from a new visitor to a Heed whose model server is `dialect`, answering
 * as `p`; resolves once the reply completed or failed, with what was stored, the run, and the
 * text the visitor saw stream in.
 */
export async function converse(heed: TestHeed, dialect: DialectServer, p: Personality, text = 'When do you open?') {
  dialect.use(p);
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  const events = visitor.subscribe();
  await visitor.send(conversationId, text);
  const end = await events.waitFor((e) => e.type === 'reply.completed' || e.type === 'reply.failed', 30_000);
  events.close();
  const db = heed.services.db;
  const stored = await db.message.findFirstOrThrow({
    where: { conversationId, role: 'assistant' },
    select: { content: true, error: true },
  });
  const run = await db.run.findFirstOrThrow({ where: { conversationId }, select: { id: true, attempts: true, status: true } });
  const seen = replayReplies(events.events).get(run.id) ?? '';
  return { end, stored, run, seen, conversationId, visitor };
}
