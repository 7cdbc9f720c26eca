import { randomUUID } from 'node:crypto';
import { mutate } from '../ingest/wire.ts';

/** A scripted visitor: its own session, one conversation with a pending message (the run's batch). */
export interface FanoutVisitor {
  token: string;
  visitorId: string;
  conversationId: string;
}

/**
 * Starts `count` visitors over HTTP exactly as the widget does (session.start,
 * conversation.create, message.send), `concurrency` at a time.
 */
export async function startVisitors(
  url: string,
  count: number,
  opts: { siteKey: string; origin: string; concurrency: number },
): Promise<FanoutVisitor[]> {
  const visitors: FanoutVisitor[] = [];
  await inPool(count, opts.concurrency, async () => {
    const session = await mutate<{ visitorToken: string; visitorId: string }>(
      url,
      'session.start',
      { siteKey: opts.siteKey },
      null,
      opts.origin,
    );
    const conversation = await mutate<{ id: string }>(url, 'conversation.create', undefined, session.visitorToken, opts.origin);
    await mutate(
      url,
      'message.send',
      { conversationId: conversation.id, clientMessageId: randomUUID(), content: 'where is my order?' },
      session.visitorToken,
      opts.origin,
    );
    visitors.push({ token: session.visitorToken, visitorId: session.visitorId, conversationId: conversation.id });
  });
  return visitors;
}

/** A fresh stream ticket for one connection, as the widget asks for one (`events.ticket`). */
export async function streamTicket(url: string, visitor: FanoutVisitor, origin: string): Promise<string> {
  return (await mutate<{ ticket: string }>(url, 'events.ticket', undefined, visitor.token, origin)).ticket;
}

/** Runs `task(i)` for i in [0, count), at most `concurrency` at once. */
export async function inPool(count: number, concurrency: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(count, concurrency) }, async () => {
      while (next < count) await task(next++);
    }),
  );
}
