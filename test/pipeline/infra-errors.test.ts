import pg from 'pg';
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { FAILURE_TEXT } from '../../api/src/chat/model/model-errors.ts';
import { INFRA_MAX_ATTEMPTS, INFRA_RETRY } from '../../api/src/chat/run/retry-run.ts';
import { claimBatch } from '../../api/src/chat/schedule/claim-batch.ts';
import { answerDepsOf } from '../../api/src/chat/schedule/start-worker.ts';
import { afterError, runErrorKind } from '../../api/src/chat/run/run-failure.ts';
import { createDb } from '../../api/src/db/client.ts';
import { closedPort } from '../support/closed-port.ts';
import { TestHeed } from '../support/harness.ts';

/**
 * A database that drops a run's connection is not the model's fault: the batch is tried again,
 * and only after INFRA_MAX_ATTEMPTS such runs does the visitor read a failure, called
 * `service_unavailable`. The errors are real: a query whose backend `pg_terminate_backend` ended,
 * a database on a closed port. The tests hand them to the run's error path (`afterError`) for a
 * batch they claimed, so each attempt is deterministic; the retry itself is the worker's.
 */
let heed: TestHeed;
let admin: pg.Client;
beforeAll(async () => {
  heed = await TestHeed.start({ env: { MODEL_MAX_ATTEMPTS: '1' } });
  admin = new pg.Client({ connectionString: heed.database.url });
  await admin.connect();
});
afterAll(async () => {
  await admin?.end();
  await heed?.stop();
});
beforeEach(() => heed.model.reset());

/** A conversation whose visitor sent `text` with no worker running (its events collected from the start). */
async function pendingConversation(text: string) {
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  const events = visitor.subscribe();
  // the tests below drive a run's ending themselves: no worker may claim their batches first
  await heed.stopWorkers();
  await visitor.send(conversationId, text);
  return { conversationId, events };
}

/** Claims the conversation's batch as a worker would (a new run each time, once the last one's lease allows). */
const claimed = (conversationId: string, what = 'the batch is claimed') =>
  heed.until(what, () => claimBatch(heed.services, { conversationId, workerId: 'test', leaseMs: 30_000 }));

test('a run whose database connection was terminated is tried again after a backoff: answered once, no failed reply', async () => {
  const { conversationId, events } = await pendingConversation('Where is my parcel?');
  const { services } = heed;
  // the run's first read fails as a terminated backend makes it fail: the batch goes back, not to "failed"
  const batch = await claimed(conversationId);
  expect(await afterError(answerDepsOf(heed.services), batch, await terminatedQueryError(), null)).toBe('retrying');

  heed.model.script({ text: 'Your parcel left today.' });
  await heed.startWorker();
  const done = await events.waitFor((e) => e.type === 'reply.completed', 15_000);
  expect(done.type === 'reply.completed' && done.message.content).toBe('Your parcel left today.');
  expect(events.events.some((e) => e.type === 'reply.failed')).toBe(false);
  expect(heed.model.requests).toHaveLength(1);
  const replies = await services.db.message.findMany({
    where: { conversationId, role: 'assistant' },
    select: { content: true, error: true },
  });
  expect(replies).toEqual([{ content: 'Your parcel left today.', error: null }]);
  const runs = await services.db.run.findMany({
    where: { conversationId },
    orderBy: { fence: 'asc' },
    select: { status: true, error: true },
  });
  expect(runs).toEqual([
    { status: 'abandoned', error: INFRA_RETRY },
    { status: 'completed', error: null },
  ]);
  events.close();
});

test('a database that stays away through every attempt fails the batch as service_unavailable, never model_error', async () => {
  const { conversationId, events } = await pendingConversation('Is anyone there?');
  const { services } = heed;
  const deps = answerDepsOf(heed.services);
  const outcomes: string[] = [];
  for (let attempt = 1; attempt <= INFRA_MAX_ATTEMPTS; attempt++) {
    // each attempt is a new run that claims the batch once the previous one's backoff is over
    const batch = await claimed(conversationId, `attempt ${attempt} claims the batch`);
    outcomes.push(await afterError(deps, batch, await terminatedQueryError(), null));
  }
  expect(outcomes).toEqual([...Array(INFRA_MAX_ATTEMPTS - 1).fill('retrying'), 'failed_service']);

  const failed = await events.waitFor((e) => e.type === 'reply.failed', 15_000);
  expect(failed.type === 'reply.failed' && failed.message).toMatchObject({
    error: 'service_unavailable',
    content: FAILURE_TEXT.service_unavailable,
  });
  const thread = await services.db.message.findMany({
    where: { conversationId },
    orderBy: { seq: 'asc' },
    select: { role: true, state: true, error: true },
  });
  expect(thread).toEqual([
    { role: 'user', state: 'failed', error: null },
    { role: 'assistant', state: null, error: 'service_unavailable' },
  ]);
  const runs = await services.db.run.findMany({
    where: { conversationId },
    orderBy: { fence: 'asc' },
    select: { status: true, error: true },
  });
  expect(runs).toEqual([
    ...Array(INFRA_MAX_ATTEMPTS - 1).fill({ status: 'abandoned', error: INFRA_RETRY }),
    { status: 'failed', error: 'service_unavailable' },
  ]);
  events.close();
});

test('a run whose failure cannot be written (the database still away) is left to its lease, and nothing throws', async () => {
  const { conversationId, events } = await pendingConversation('Hello?');
  events.close();
  const { services } = heed;
  const batch = await claimed(conversationId);
  const away = createDb(`postgresql://postgres@127.0.0.1:${await closedPort()}/heed`);
  try {
    const deps = { ...answerDepsOf(heed.services), db: away };
    expect(await afterError(deps, batch, await terminatedQueryError(), null)).toBe('abandoned');
    expect(await afterError(deps, batch, new TypeError('a bug of ours'), null)).toBe('abandoned');
  } finally {
    await away.$disconnect();
  }
  const run = await services.db.run.findUniqueOrThrow({ where: { id: batch.runId }, select: { status: true, error: true } });
  expect(run).toEqual({ status: 'claimed', error: null });
  expect(await services.db.message.count({ where: { conversationId, role: 'assistant' } })).toBe(0);
});

test('a bug of ours fails the batch as internal_error, with its stack in the log, not as a model error', async () => {
  const { conversationId, events } = await pendingConversation('Hi');
  events.close();
  const { services } = heed;
  const batch = await claimed(conversationId);
  const bug = new TypeError("Cannot read properties of undefined (reading 'text')");
  expect(runErrorKind(bug)).toBe('internal');
  expect(await afterError(answerDepsOf(heed.services), batch, bug, null)).toBe('failed_internal');
  const reply = await services.db.message.findFirstOrThrow({
    where: { conversationId, role: 'assistant' },
    select: { error: true, content: true },
  });
  expect(reply).toEqual({ error: 'internal_error', content: FAILURE_TEXT.internal_error });
  const line = heed.logs.findLast((l) => l.includes('run failed: internal_error'));
  expect(line).toContain('TypeError');
  expect(line).toContain('infra-errors.test.ts');
});

/** A real error from a query whose backend `pg_terminate_backend` ended (what a failover or a restart does). */
async function terminatedQueryError(): Promise<unknown> {
  const db = heed.services.db;
  const sleeping = db.$queryRaw`SELECT pg_sleep(10), 'terminate me'`.then(
    () => new Error('the query was not terminated'),
    (err: unknown) => err,
  );
  await heed.until(
    'the query runs',
    async () =>
      (
        await admin.query(
          `SELECT 1 FROM pg_stat_activity WHERE query LIKE '%terminate me%' AND pid <> pg_backend_pid() AND datname = current_database()`,
        )
      ).rowCount,
  );
  await admin.query(
    `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE '%terminate me%' AND pid <> pg_backend_pid() AND datname = current_database()`,
  );
  return sleeping;
}
