import { afterAll, beforeAll, expect, test } from 'vitest';
import { TestHeed } from '../support/harness.ts';
import { signedInOperator, type TestOperator } from '../support/console.ts';
import { errorOf, settle, watchConsole } from './helpers.ts';

/**
 * Takeover while a reply streams: the run FINISHES (decision: cancelling would make a
 * half-written reply vanish mid-sentence and leave its claimed messages answered by nobody),
 * and from the takeover on no run is claimed, by any worker, across a restart.
 */
let heed: TestHeed;
let ana: TestOperator;
let bo: TestOperator;
beforeAll(async () => {
  heed = await TestHeed.start({ workers: 2, env: { MODEL_MAX_ATTEMPTS: '1', LEASE_MS: '10000' } });
  ana = await signedInOperator(heed.services, heed.url, { role: 'agent', name: 'Ana' });
  bo = await signedInOperator(heed.services, heed.url, { role: 'agent', name: 'Bo' });
});
afterAll(() => heed?.stop());

test('a takeover during a streaming reply lets the reply finish and be stored; later visitor messages reach the console live and are never sent to the model, with two workers and after a restart', async () => {
  const db = heed.services.db;
  const console = watchConsole(heed, ana);
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  const events = visitor.subscribe((await visitor.api.conversation.list.query()).cursor);
  const slow = 'The walnut shelf comes in three widths, each oiled by hand, and ships in two weeks.';
  heed.model.reset();
  heed.model.script({ text: slow, chunkSize: 4, chunkDelayMs: 60 });
  await visitor.send(conversationId, 'Tell me about the walnut shelf.');
  await events.waitFor((e) => e.type === 'reply.delta');

  const head = await ana.api.console.conversations.takeOver.mutate({ conversationId });
  expect(head).toMatchObject({
    id: conversationId,
    heldBy: { id: ana.id, name: 'Ana' },
    attention: 'live',
    waitingForPerson: false,
    private: false,
  });
  // the visitor learns it at once: the notice and the heading's holder
  const joined = await events.waitFor((e) => e.type === 'message.created' && e.message.role === 'notice');
  expect(joined.type === 'message.created' && joined.message).toMatchObject({
    provenance: 'operator_joined',
    provenanceLabel: 'Ana',
    content: '',
  });
  await events.waitFor((e) => e.type === 'conversation.updated' && e.conversation.heldBy === 'Ana');

  // sent while the reply still streams, and after it
  await visitor.send(conversationId, 'Actually, can a person check my order?');
  const done = await events.waitFor((e) => e.type === 'reply.completed', 15_000);
  expect(done.type === 'reply.completed' && done.message.content).toBe(slow);
  await visitor.send(conversationId, 'It is order 1234.');

  // the console gets them live: the list item moves, the transcript holds them
  // four messages someone wrote: the notice "Ana joined" is not one of them
  await console.until('the visitor messages in the console', conversationId, (i) => i.messageCount === 4 && i.heldBy?.name === 'Ana');
  await settle();
  const transcript = await ana.api.console.conversations.transcript.query({ conversationId });
  expect(transcript.heldBy).toEqual({ id: ana.id, name: 'Ana' });
  expect(transcript.messages.map((m) => [m.role, m.content, m.state, m.provenance, m.provenanceLabel])).toEqual([
    ['user', 'Tell me about the walnut shelf.', 'answered', null, null],
    ['notice', '', null, 'operator_joined', 'Ana'],
    ['user', 'Actually, can a person check my order?', 'pending', null, null],
    ['assistant', slow, null, null, null],
    ['user', 'It is order 1234.', 'pending', null, null],
  ]);
  expect(transcript.runs.map((r) => r.status)).toEqual(['completed']);
  expect(heed.model.requests).toHaveLength(1);

  // both workers poll and are woken by the sends; neither claims
  expect(heed.workers).toHaveLength(2);
  await settle();
  expect(heed.model.requests).toHaveLength(1);
  expect(await db.run.count({ where: { conversationId } })).toBe(1);

  // a restart of every worker: the hold is a column, not a worker's memory
  for (const worker of heed.workers.splice(0)) await worker.stop();
  await heed.startWorker();
  await heed.startWorker();
  await visitor.send(conversationId, 'Hello? Anyone there?');
  await settle(2000);
  expect(heed.model.requests).toHaveLength(1);
  const waiting = await db.message.findMany({
    where: { conversationId, role: 'user', state: 'pending' },
    orderBy: { seq: 'asc' },
    select: { content: true, runId: true },
  });
  expect(waiting).toEqual([
    { content: 'Actually, can a person check my order?', runId: null },
    { content: 'It is order 1234.', runId: null },
    { content: 'Hello? Anyone there?', runId: null },
  ]);
  expect(console.errors).toEqual([]);
  console.close();
  events.close();
});

test('the hold is compare-and-set: a second operator is refused, naming the holder; the holder taking over again changes nothing', async () => {
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  await ana.api.console.conversations.takeOver.mutate({ conversationId });
  expect(await errorOf(bo.api.console.conversations.takeOver.mutate({ conversationId }))).toMatchObject({
    code: 'CONFLICT',
    reason: 'held_by_other',
    message: expect.stringContaining('Ana'),
  });
  const again = await ana.api.console.conversations.takeOver.mutate({ conversationId });
  expect(again.heldBy).toEqual({ id: ana.id, name: 'Ana' });
  const notices = await heed.services.db.message.findMany({ where: { conversationId, role: 'notice' }, select: { provenance: true } });
  expect(notices).toEqual([{ provenance: 'operator_joined' }]);
  // racing takeovers: exactly one wins
  const other = await visitor.conversation();
  const race = await Promise.allSettled([
    ana.api.console.conversations.takeOver.mutate({ conversationId: other }),
    bo.api.console.conversations.takeOver.mutate({ conversationId: other }),
  ]);
  expect(race.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
  expect(await heed.services.db.message.count({ where: { conversationId: other, role: 'notice' } })).toBe(1);
  // an unknown conversation is NOT_FOUND
  expect(
    await errorOf(ana.api.console.conversations.takeOver.mutate({ conversationId: '00000000-0000-4000-8000-000000000000' })),
  ).toMatchObject({ code: 'NOT_FOUND' });
});
