import { randomUUID } from 'node:crypto';
import { TRPCClientError } from '@trpc/client';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { CONTINUE_REQUEST } from '../../api/src/chat/context/pending-turn.ts';
import { promptMessages } from '../support/conversation-text.ts';
import { TestHeed, type TestVisitor } from '../support/harness.ts';

/**
 * A reply the model stopped at its token cap (`finish_reason: length`) is stored and shown as cut
 * short, and the visitor can ask for the rest: the model is asked to go on from where it stopped,
 * with the question it was answering kept as answered history, never re-sent as unanswered.
 */
let heed: TestHeed;
beforeAll(async () => {
  heed = await TestHeed.start();
});
afterAll(() => heed?.stop());

/** The refusal's tRPC code and reason, or 'ok'. */
async function refusal(call: Promise<unknown>): Promise<string> {
  try {
    await call;
    return 'ok';
  } catch (err) {
    if (!(err instanceof TRPCClientError)) throw err;
    return [err.data?.code, err.data?.reason].filter(Boolean).join(' ');
  }
}

/** A conversation whose one reply the model cut short, and that reply's id. */
async function cutConversation(visitor: TestVisitor) {
  const conversationId = await visitor.conversation();
  const events = visitor.subscribe();
  heed.model.script({ text: 'Our stores: 1. Oslo 2. Bergen 3. Trond', finishReason: 'length' });
  await visitor.send(conversationId, 'List every store in Norway');
  const done = await events.waitFor((e) => e.type === 'reply.completed');
  if (done.type !== 'reply.completed') throw new Error('unreachable');
  return { conversationId, events, cut: done.message };
}

test('a reply cut at the token cap is stored whole and marked cut short, live and when read again', async () => {
  const visitor = await heed.visitor();
  const { conversationId, events, cut } = await cutConversation(visitor);
  expect(cut).toMatchObject({ content: 'Our stores: 1. Oslo 2. Bergen 3. Trond', cutShort: true, error: null });
  const { messages } = await visitor.api.conversation.get.query({ conversationId });
  expect(messages.at(-1)).toMatchObject({ id: cut.id, cutShort: true });
  expect(messages.filter((m) => m.role === 'user').map((m) => m.state)).toEqual(['answered']);
  events.close();
});

test('"Continue" asks the model for the rest, with the question as answered history; the rest follows as the next reply', async () => {
  const visitor = await heed.visitor();
  const { conversationId, events, cut } = await cutConversation(visitor);
  heed.model.script({ text: 'heim 4. Tromsø' });
  const asked = await visitor.api.message.continue.mutate({ conversationId, messageId: cut.id, clientMessageId: randomUUID() });
  expect(asked).toMatchObject({ role: 'user', content: '', provenance: 'continue', state: 'pending' });
  const rest = await events.waitFor((e) => e.type === 'reply.completed' && e.message.id !== cut.id);
  expect(rest.type === 'reply.completed' && rest.message).toMatchObject({ content: 'heim 4. Tromsø', cutShort: false });

  const sent = promptMessages(heed.model.requests.at(-1)!).slice(1);
  expect(sent).toEqual([
    { role: 'user', content: 'List every store in Norway' },
    { role: 'assistant', content: 'Our stores: 1. Oslo 2. Bergen 3. Trond' },
    { role: 'user', content: CONTINUE_REQUEST },
  ]);
  // the rest came: there is nothing left to continue
  expect(await refusal(visitor.api.message.continue.mutate({ conversationId, messageId: cut.id, clientMessageId: randomUUID() }))).toBe(
    'CONFLICT nothing_to_continue',
  );

  // the next question sees one whole reply in history, and no empty visitor turn
  const events2 = visitor.subscribe();
  heed.model.script({ text: 'Oslo.' });
  await visitor.send(conversationId, 'Which is the biggest?');
  await events2.waitFor((e) => e.type === 'reply.completed' && e.message.content === 'Oslo.');
  expect(promptMessages(heed.model.requests.at(-1)!).slice(1, 3)).toEqual([
    { role: 'user', content: 'List every store in Norway' },
    { role: 'assistant', content: 'Our stores: 1. Oslo 2. Bergen 3. Trondheim 4. Tromsø' },
  ]);
  events.close();
  events2.close();
});

test('only the newest cut reply of the visitor’s own conversation can be continued, once per request id', async () => {
  const visitor = await heed.visitor();
  const { conversationId, events, cut } = await cutConversation(visitor);
  const stranger = await heed.visitor();
  expect(await refusal(stranger.api.message.continue.mutate({ conversationId, messageId: cut.id, clientMessageId: randomUUID() }))).toBe(
    'NOT_FOUND',
  );

  // held by a run that never answers, so the request stays pending while it is asked again
  heed.model.script({ hang: true });
  const clientMessageId = randomUUID();
  const first = await visitor.api.message.continue.mutate({ conversationId, messageId: cut.id, clientMessageId });
  const again = await visitor.api.message.continue.mutate({ conversationId, messageId: cut.id, clientMessageId });
  expect(again.id).toBe(first.id);
  expect(await heed.services.db.message.count({ where: { conversationId, provenance: 'continue' } })).toBe(1);

  const whole = await heed.visitor();
  const wholeConversation = await whole.conversation();
  const wholeEvents = whole.subscribe();
  heed.model.script({ text: 'We open at nine.' });
  await whole.send(wholeConversation, 'When do you open?');
  const done = await wholeEvents.waitFor((e) => e.type === 'reply.completed');
  const wholeId = done.type === 'reply.completed' ? done.message.id : '';
  expect(
    await refusal(
      whole.api.message.continue.mutate({ conversationId: wholeConversation, messageId: wholeId, clientMessageId: randomUUID() }),
    ),
  ).toBe('CONFLICT nothing_to_continue');
  events.close();
  wholeEvents.close();
});
