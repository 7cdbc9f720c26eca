import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { TestHeed, type EventLog } from '../support/harness.ts';
import { promptMessages, replayReplies } from '../support/conversation-text.ts';
import type { RecordedRequest } from '../../api/src/model-server/types.ts';
import { MAX_MODEL_ROUNDS } from '../../api/src/chat/model/tool-loop.ts';

/**
 * Todos: the model adds and completes them through tools within one run (the tool loop), and
 * the open ones come back to it as a bounded context section in later runs.
 */
let heed: TestHeed;
beforeAll(async () => {
  heed = await TestHeed.start();
});
afterAll(() => heed?.stop());
beforeEach(() => heed.model.reset());

const replies = (events: EventLog) => events.events.filter((e) => e.type === 'reply.completed');
/** The context system message of a request (after the system prompt), or ''. */
const contextOf = (req: RecordedRequest) =>
  promptMessages(req)
    .filter((m, i) => i > 0 && m.role === 'system')
    .map((m) => m.content)
    .join('\n');
const rawMessages = (req: RecordedRequest) =>
  (req.body.messages ?? []) as { role: string; content?: unknown; tool_calls?: { id: string }[]; tool_call_id?: string }[];

test('todo_add is applied and the model continues in the same run; a later run lists it as open; todo_complete removes it', async () => {
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  const events = visitor.subscribe();

  heed.model.script(
    { toolCalls: [{ id: 'call_add', name: 'todo_add', arguments: { text: 'Email the assembly guide for the Oslo sofa' } }] },
    { text: 'I will email you the assembly guide.' },
  );
  await visitor.send(conversationId, 'Can you send me the assembly guide?');
  await heed.until('the first reply', () => replies(events).length === 1);

  // one run, two model requests: the second carries the call and its result
  expect(heed.model.requests).toHaveLength(2);
  expect(await heed.services.db.run.count({ where: { conversationId } })).toBe(1);
  const second = rawMessages(heed.model.requests[1]!);
  expect(second.at(-2)).toMatchObject({ role: 'assistant', content: null, tool_calls: [{ id: 'call_add' }] });
  const result = JSON.parse(String(second.at(-1)!.content)) as { ok: boolean; id: string };
  expect(second.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'call_add' });
  expect(result.ok).toBe(true);
  const done = replies(events)[0]!;
  expect(done.type === 'reply.completed' && done.message.content).toBe('I will email you the assembly guide.');

  const { conversation } = await visitor.api.conversation.get.query({ conversationId });
  expect(conversation.openTodos).toEqual([
    { id: result.id, text: 'Email the assembly guide for the Oslo sofa', createdAt: expect.any(String) },
  ]);
  const update = events.events.find((e) => e.type === 'conversation.updated' && e.conversation.openTodos.length === 1);
  expect(update).toBeDefined();

  // a later run: the open-todos section lists it with its id
  await visitor.send(conversationId, 'Thanks! What colours does it come in?');
  await heed.until('the second reply', () => replies(events).length === 2);
  const later = contextOf(heed.model.requests[2]!);
  expect(later).toContain('## Open todos (1)');
  expect(later).toContain('These are open');
  expect(later).toContain(`- [${result.id}] Email the assembly guide for the Oslo sofa`);

  // todo_complete in another run: gone from the view and from the next context
  heed.model.script(
    { toolCalls: [{ id: 'call_done', name: 'todo_complete', arguments: { id: result.id } }] },
    { text: 'Sent it just now.' },
  );
  await visitor.send(conversationId, 'Did you send the guide?');
  await heed.until('the third reply', () => replies(events).length === 3);
  expect(JSON.parse(String(rawMessages(heed.model.requests[4]!).at(-1)!.content))).toEqual({ ok: true, id: result.id });
  expect((await visitor.api.conversation.get.query({ conversationId })).conversation.openTodos).toEqual([]);

  await visitor.send(conversationId, 'Great, thank you');
  await heed.until('the fourth reply', () => replies(events).length === 4);
  expect(contextOf(heed.model.requests[5]!)).not.toContain('Open todos');
  expect(JSON.stringify(heed.model.requests[5]!.body.messages)).not.toContain('assembly guide for the Oslo sofa');
  events.close();
});

test('a tool call with invalid arguments is refused with an error result and the model corrects itself in the same run', async () => {
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  const events = visitor.subscribe();
  heed.model.script(
    { toolCalls: [{ id: 'call_bad', name: 'todo_add', arguments: { note: 'missing text' } }] },
    { toolCalls: [{ id: 'call_good', name: 'todo_add', arguments: { text: 'Call back on Monday' } }] },
    { text: 'Noted, I will call you back on Monday.' },
  );
  await visitor.send(conversationId, 'Please call me back on Monday');
  await heed.until('the reply', () => replies(events).length === 1);

  expect(heed.model.requests).toHaveLength(3);
  const refused = rawMessages(heed.model.requests[1]!).at(-1)!;
  expect(refused).toMatchObject({ role: 'tool', tool_call_id: 'call_bad' });
  expect(String(refused.content)).toMatch(/"error":"invalid arguments for todo_add: text: /);
  const todos = await heed.services.db.todo.findMany({ where: { conversationId }, select: { text: true, status: true } });
  expect(todos).toEqual([{ text: 'Call back on Monday', status: 'open' }]);
  events.close();
});

test(`the tool loop is bounded: after ${MAX_MODEL_ROUNDS} model requests the run ends with text, the last request offering no tool call`, async () => {
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  const events = visitor.subscribe();
  const adding = (i: number) => ({ toolCalls: [{ id: `call_${i}`, name: 'todo_add', arguments: { text: `Thing ${i}` } }] });
  heed.model.script(adding(1), adding(2), adding(3), {
    text: 'Here is where things stand.',
    toolCalls: [{ name: 'todo_add', arguments: { text: 'Thing 4' } }],
  });
  await visitor.send(conversationId, 'Keep track of everything');
  await heed.until('the reply', () => replies(events).length === 1);

  expect(heed.model.requests).toHaveLength(MAX_MODEL_ROUNDS);
  expect(heed.model.requests.map((r) => r.body.tool_choice)).toEqual(['auto', 'auto', 'auto', 'none']);
  const done = replies(events)[0]!;
  expect(done.type === 'reply.completed' && done.message.content).toBe('Here is where things stand.');
  const texts = (
    await heed.services.db.todo.findMany({ where: { conversationId }, orderBy: { createdAt: 'asc' }, select: { text: true } })
  ).map((t) => t.text);
  expect(texts).toEqual(['Thing 1', 'Thing 2', 'Thing 3']);
  events.close();
});

test('text the model writes across rounds streams as one reply and is stored whole', async () => {
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  const events = visitor.subscribe();
  heed.model.script(
    { text: 'Let me note that.', toolCalls: [{ name: 'todo_add', arguments: { text: 'Check the warranty' } }] },
    { text: 'Noted: I will check the warranty.' },
  );
  await visitor.send(conversationId, 'Is the sofa under warranty?');
  const done = await events.waitFor((e) => e.type === 'reply.completed');
  if (done.type !== 'reply.completed') throw new Error('unreachable');
  expect(done.message.content).toBe('Let me note that.\n\nNoted: I will check the warranty.');
  expect(replayReplies(events.events.filter((e) => e.type !== 'reply.completed')).get(done.runId)).toBe(done.message.content);
  events.close();
});
