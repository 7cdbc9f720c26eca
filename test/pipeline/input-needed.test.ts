import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { TestHeed, type EventLog, type TestVisitor } from '../support/harness.ts';
import { finalTurn, promptMessages } from '../support/conversation-text.ts';
import type { RecordedRequest } from '../../api/src/model-server/types.ts';
import type { VisitorEvent } from '../../api/src/events/event-types.ts';

/**
 * "Input needed": the model asks the visitor something through `request_user_input`, the run
 * ends waiting. Viewing the question acknowledges the attention state (like an unread reply);
 * the question stays open until an answer (a send linked to the request) closes it.
 */
let heed: TestHeed;
beforeAll(async () => {
  heed = await TestHeed.start();
});
afterAll(() => heed?.stop());
beforeEach(() => heed.model.reset());

const QUESTION = 'Which colour would you like for the sofa?';
const askColour = (id = `call_${randomUUID().slice(0, 8)}`) => ({
  toolCalls: [{ id, name: 'request_user_input', arguments: { question: QUESTION, choices: ['Red', 'Blue'] } }],
});

const replies = (events: EventLog) => events.events.filter((e) => e.type === 'reply.completed');
const attentions = (events: readonly VisitorEvent[]) =>
  events.flatMap((e) => (e.type === 'conversation.updated' ? [e.conversation.attention] : []));

/** Sends a message that makes the model ask; resolves with the question as the events delivered it, once its input-needed state arrived too. */
async function askedInput(visitor: TestVisitor, events: EventLog, conversationId: string, callId?: string) {
  heed.model.script(askColour(callId));
  await visitor.send(conversationId, 'I want to order the Oslo sofa');
  const done = await events.waitFor((e) => e.type === 'reply.completed' && e.message.inputRequest !== null);
  if (done.type !== 'reply.completed') throw new Error('unreachable');
  // the question's state follows the reply: later checks start after it
  await events.waitFor((e) => e.type === 'conversation.updated' && e.conversation.attention === 'input_needed');
  return done;
}

/** The raw messages of a recorded request (tool calls included). */
const rawMessages = (req: RecordedRequest) =>
  (req.body.messages ?? []) as {
    role: string;
    content?: unknown;
    tool_calls?: { id: string; function: { name: string } }[];
    tool_call_id?: string;
  }[];

test('a scripted request_user_input ends the run awaiting input; the conversation needs input in conversation.list and in events until viewed, and the question stays open after', async () => {
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  const events = visitor.subscribe();
  const question = await askedInput(visitor, events, conversationId, 'call_colour_1');

  expect(question.message).toMatchObject({
    role: 'assistant',
    content: QUESTION,
    inputRequest: { id: expect.any(String), choices: ['Red', 'Blue'], allowFreeText: true, status: 'open' },
  });
  const run = await heed.services.db.run.findUniqueOrThrow({ where: { id: question.runId }, select: { status: true } });
  expect(run.status).toBe('awaiting_input');
  const stored = await heed.services.db.inputRequest.findFirstOrThrow({ where: { conversationId } });
  expect(stored).toMatchObject({
    toolCallId: 'call_colour_1',
    runId: question.runId,
    messageId: question.message.id,
    status: 'open',
    answerMessageId: null,
  });
  const batch = await heed.services.db.message.findMany({ where: { conversationId, role: 'user' }, select: { state: true } });
  expect(batch.map((m) => m.state)).toEqual(['answered']);

  const { conversations } = await visitor.api.conversation.list.query();
  expect(conversations[0]).toMatchObject({
    id: conversationId,
    live: false,
    inputNeeded: true,
    unread: true,
    attention: 'input_needed',
    excerpt: QUESTION,
    inputRequest: { id: stored.id, question: QUESTION, choices: ['Red', 'Blue'], allowFreeText: true, createdAt: expect.any(String) },
  });
  const updated = await heed.until('the input-needed update', () =>
    events.events.findLast((e) => e.type === 'conversation.updated' && e.conversation.inputNeeded),
  );
  expect(updated.type === 'conversation.updated' && updated.conversation).toMatchObject({
    attention: 'input_needed',
    inputRequest: { id: stored.id },
  });

  // the question is the reply: its time is the one the widget marks read
  expect(conversations[0]!.lastAssistantAt).toBe(conversations[0]!.inputRequest!.createdAt);
  // viewing acknowledges the attention state; it is not an answer, so the question stays open
  await visitor.api.conversation.get.query({ conversationId });
  const read = await visitor.api.conversation.markRead.mutate({ conversationId, lastAssistantAt: conversations[0]!.lastAssistantAt! });
  expect(read).toMatchObject({
    unread: false,
    inputNeeded: false,
    attention: 'default',
    inputRequest: { id: stored.id, question: QUESTION },
  });
  const acknowledged = await heed.until('the acknowledged update', () =>
    events.events.findLast((e) => e.type === 'conversation.updated' && e.conversation.inputRequest !== null && !e.conversation.inputNeeded),
  );
  expect(acknowledged.type === 'conversation.updated' && acknowledged.conversation.attention).toBe('default');
  expect(await heed.services.db.inputRequest.findUniqueOrThrow({ where: { id: stored.id }, select: { status: true } })).toEqual({
    status: 'open',
  });
  const thread = await visitor.api.conversation.get.query({ conversationId });
  expect(thread.messages.find((m) => m.id === question.message.id)!.inputRequest).toMatchObject({ id: stored.id, status: 'open' });
  events.close();
});

test('answering sends the model the tool result for that call id; the state goes live, then unviewed, never input needed again', async () => {
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  const events = visitor.subscribe();
  const question = await askedInput(visitor, events, conversationId, 'call_colour_2');
  const requestId = question.message.inputRequest!.id;

  const before = events.events.length;
  heed.model.script({ text: 'Blue it is: a calm choice. I will reserve one for you.', chunkSize: 4, chunkDelayMs: 40 });
  const answer = await visitor.api.message.send.mutate({
    conversationId,
    clientMessageId: randomUUID(),
    content: 'Blue',
    answersRequestId: requestId,
  });
  expect(answer).toMatchObject({ role: 'user', content: 'Blue', state: 'pending', inputRequest: null });
  // the answer clears input needed at once, before its run even starts
  expect((await visitor.api.conversation.get.query({ conversationId })).conversation).toMatchObject({
    inputNeeded: false,
    inputRequest: null,
  });

  await heed.until('the reply to the answer', () => replies(events).length === 2);
  expect(heed.model.requests).toHaveLength(2);
  const messages = rawMessages(heed.model.requests[1]!);
  const call = messages.find((m) => m.role === 'assistant' && m.tool_calls);
  expect(call?.tool_calls).toEqual([
    expect.objectContaining({ id: 'call_colour_2', function: expect.objectContaining({ name: 'request_user_input' }) }),
  ]);
  expect(call?.content).toBe(QUESTION);
  expect(messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'call_colour_2', content: JSON.stringify({ answer: 'Blue' }) });
  expect(messages.indexOf(call!)).toBe(messages.length - 2);

  const after = events.events.slice(before);
  const states = attentions(after);
  expect(states).not.toContain('input_needed');
  expect(states).toContain('live');
  expect(states.at(-1)).toBe('unviewed');
  expect(states.indexOf('live')).toBeLessThan(states.lastIndexOf('unviewed'));

  const thread = await visitor.api.conversation.get.query({ conversationId });
  expect(thread.conversation).toMatchObject({ inputNeeded: false, inputRequest: null, attention: 'unviewed' });
  const asked = thread.messages.find((m) => m.id === question.message.id)!;
  expect(asked.inputRequest).toMatchObject({ id: requestId, status: 'answered' });
  const stored = await heed.services.db.inputRequest.findUniqueOrThrow({ where: { id: requestId } });
  expect(stored).toMatchObject({ status: 'answered', answerMessageId: answer.id });
  const read = await visitor.api.conversation.markRead.mutate({ conversationId, lastAssistantAt: thread.conversation.lastAssistantAt! });
  expect(read.attention).toBe('default');
  events.close();
});

test('two unrelated sends while input is needed are one run whose final user turn holds both and whose context still shows the open question', async () => {
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  const events = visitor.subscribe();
  await askedInput(visitor, events, conversationId);

  await visitor.send(conversationId, 'What are your opening hours on Saturday?');
  await visitor.send(conversationId, 'And do you deliver to Tromsø?');
  await heed.until('the reply to both', () => replies(events).length === 2);

  expect(heed.model.requests).toHaveLength(2);
  const request = heed.model.requests[1]!;
  const turn = finalTurn(request);
  expect(turn).toContain('There are 2 items');
  expect(turn).toContain('What are your opening hours on Saturday?');
  expect(turn).toContain('And do you deliver to Tromsø?');
  const context = promptMessages(request)
    .filter((m) => m.role === 'system')
    .map((m) => m.content)
    .join('\n');
  expect(context).toMatch(/## Your open question\n.*still open/);
  expect(context).toContain(JSON.stringify(QUESTION));
  // no tool call without its result: the open question is plain history
  expect(rawMessages(request).some((m) => m.tool_calls)).toBe(false);

  // only an answer clears it
  const { conversations } = await visitor.api.conversation.list.query();
  expect(conversations.find((c) => c.id === conversationId)).toMatchObject({ inputNeeded: true, attention: 'input_needed' });
  events.close();
});

test('an answer to a closed question or to another conversation’s question is refused and stores nothing; a retried answer is idempotent', async () => {
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  const other = await visitor.conversation();
  const events = visitor.subscribe();
  const question = await askedInput(visitor, events, conversationId);
  const answersRequestId = question.message.inputRequest!.id;

  await expect(
    visitor.api.message.send.mutate({ conversationId: other, clientMessageId: randomUUID(), content: 'Red', answersRequestId }),
  ).rejects.toMatchObject({
    data: { code: 'NOT_FOUND' },
  });
  const clientMessageId = randomUUID();
  const first = await visitor.api.message.send.mutate({ conversationId, clientMessageId, content: 'Red', answersRequestId });
  const retried = await visitor.api.message.send.mutate({ conversationId, clientMessageId, content: 'Red', answersRequestId });
  expect(retried.id).toBe(first.id);
  await expect(
    visitor.api.message.send.mutate({ conversationId, clientMessageId: randomUUID(), content: 'Blue', answersRequestId }),
  ).rejects.toMatchObject({
    data: { code: 'BAD_REQUEST' },
  });
  const stranger = await heed.visitor();
  const strangers = await stranger.conversation();
  await expect(
    stranger.api.message.send.mutate({ conversationId: strangers, clientMessageId: randomUUID(), content: 'Blue', answersRequestId }),
  ).rejects.toMatchObject({
    data: { code: 'NOT_FOUND' },
  });
  const texts = await heed.services.db.message.findMany({
    where: { role: 'user', conversationId: { in: [conversationId, other, strangers] } },
    select: { content: true },
  });
  expect(texts.map((m) => m.content).sort()).toEqual(['I want to order the Oslo sofa', 'Red']);
  await heed.until('the reply to the answer', () => replies(events).length === 2);
  events.close();
});

test('a new question supersedes the open one: one open request at a time, the old one takes no answer', async () => {
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  const events = visitor.subscribe();
  const first = await askedInput(visitor, events, conversationId);
  heed.model.script({
    toolCalls: [
      {
        id: 'call_size',
        name: 'request_user_input',
        arguments: { question: 'Which size?', choices: ['2-seat', '3-seat'], allow_free_text: false },
      },
    ],
  });
  await visitor.send(conversationId, 'Actually, first tell me about sizes');
  await heed.until('the second question', () => replies(events).length === 2);

  const open = await heed.services.db.inputRequest.findMany({ where: { conversationId, status: 'open' }, select: { question: true } });
  expect(open).toEqual([{ question: 'Which size?' }]);
  const thread = await visitor.api.conversation.get.query({ conversationId });
  expect(thread.conversation.inputRequest).toMatchObject({ question: 'Which size?', allowFreeText: false });
  expect(thread.messages.find((m) => m.id === first.message.id)!.inputRequest!.status).toBe('answered');
  await expect(
    visitor.api.message.send.mutate({
      conversationId,
      clientMessageId: randomUUID(),
      content: 'Red',
      answersRequestId: first.message.inputRequest!.id,
    }),
  ).rejects.toMatchObject({ data: { code: 'BAD_REQUEST' } });
  events.close();
});
