import type { ConversationItem } from '../../api/src/console/conversations/item.ts';
import { makeClient, TestVisitor, type TestHeed } from '../support/harness.ts';
import type { TestOperator } from '../support/console.ts';

/** The refusal of a call as `{ code, reason }`, or null when it succeeded. */
export async function errorOf(
  call: Promise<unknown>,
): Promise<{ code: string | undefined; reason: string | null; message: string } | null> {
  try {
    await call;
    return null;
  } catch (err) {
    const data = (err as { data?: { code?: string; reason?: string | null } }).data;
    return { code: data?.code, reason: data?.reason ?? null, message: (err as Error).message };
  }
}

/** A visitor of another site than the harness's own (`heed.visitor()` uses `heed.siteKey`). */
export async function visitorOf(heed: TestHeed, siteKey: string, timeZone = 'Europe/Paris'): Promise<TestVisitor> {
  const session = await makeClient(heed.url, null).session.start.mutate({ siteKey, timeZone });
  return new TestVisitor(heed, session.visitorToken, session.visitorId);
}

/**
 * The console's live list as the console page holds it: every upsert seen, in order, and whether
 * the server ended it. With `lastEventId: '0'` it first re-sends what changed lately (the
 * catch-up), so nothing made after this call is missed, however late the stream connects.
 */
export function watchConsole(heed: TestHeed, op: TestOperator, input: { siteId?: string; lastEventId?: string } = {}) {
  const items: ConversationItem[] = [];
  const errors: unknown[] = [];
  const state = { ended: false };
  const sub = op.api.console.conversations.changes.subscribe(input, {
    onData: (raw) => items.push((raw as unknown as { data: { item: ConversationItem } }).data.item),
    onError: (err) => {
      errors.push(err);
      state.ended = true;
    },
    onComplete: () => {
      state.ended = true;
    },
  });
  const until = (what: string, conversationId: string, check: (item: ConversationItem) => boolean) =>
    heed.until(
      what,
      () => items.some((i) => i.id === conversationId && check(i)) && items.filter((i) => i.id === conversationId).at(-1)!,
      10_000,
    );
  /** Waits until the server ends the stream (well before a quiet stream's own 30 s check). */
  const ended = (what: string) => heed.until(what, () => state.ended, 10_000);
  return { items, errors, until, ended, close: () => sub.unsubscribe() };
}

/** Lets workers poll a few times: long enough for a due batch to be claimed, were it claimable. */
export const settle = (ms = 1500) => new Promise((r) => setTimeout(r, ms));
