import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ChildWorker } from '../support/child-worker.ts';
import { TestHeed } from '../support/harness.ts';
import { isEmbeddedTestRun } from '../support/stores.ts';

/**
 * Every log line of a reply run can be found by its run, its conversation and the worker that
 * ran it; a failed HTTP request's line by the id its client was answered in `X-Request-Id`;
 * production writes one JSON object a line; and none of those lines holds what a visitor
 * wrote, what the model said, a token or a secret. The real stack, its lines as printed.
 */
const OPENAI_API_KEY = `sk-test-${randomUUID()}`;
const ADMIN_TOKEN = randomBytes(32).toString('hex');
const PRODUCTION_SECRET = randomBytes(32).toString('hex');
/** in every visitor message of this file; must appear in no log line */
const MARKER = `log-scoping-marker-${randomUUID()}`;
/** in every reply of the model; must appear in no log line either */
const REPLY_MARKER = `reply-marker-${randomUUID()}`;

type Line = Record<string, unknown>;
let heed: TestHeed;
/** what the production worker process printed, whole */
let productionOutput = '';
/** every credential this file handles, to search the logs for at the end */
const secrets: string[] = [OPENAI_API_KEY, ADMIN_TOKEN, PRODUCTION_SECRET];

beforeAll(async () => {
  heed = await TestHeed.start({ env: { OPENAI_API_KEY, ADMIN_TOKEN, MODEL_MAX_ATTEMPTS: '1' } });
  secrets.push(heed.config.HEED_SECRET);
});
afterAll(() => heed?.stop());

const lines = (): Line[] => heed.logs.map((line) => JSON.parse(line) as Line);

test('a reply run logs lines carrying its runId, its conversationId and the workerId that ran it', async () => {
  const visitor = await heed.visitor();
  secrets.push(visitor.token);
  const conversationId = await visitor.conversation();
  const events = visitor.subscribe();
  heed.model.script({ text: `Here you are: ${REPLY_MARKER}` }, { error: { status: 400, message: `Invalid prompt: ${MARKER}` } });

  await visitor.send(conversationId, `my order number is ${MARKER}`);
  const finished = await heed.until('the run line', () =>
    lines().find((l) => l.msg === 'run finished' && l.conversationId === conversationId),
  );
  await visitor.send(conversationId, `again: ${MARKER}`);
  const failed = await heed.until('the failed run line', () =>
    lines().find((l) => String(l.msg).startsWith('run failed') && l.conversationId === conversationId),
  );
  events.close();

  const runs = await heed.services.db.run.findMany({ where: { conversationId }, orderBy: { fence: 'asc' }, select: { id: true } });
  const workerId = heed.workers[0]!.id;
  expect(finished).toMatchObject({ level: 'info', runId: runs[0]!.id, conversationId, workerId, outcome: 'completed', batchSize: 1 });
  // a line from inside the run (answer-batch.ts) carries the same scope, and the provider's error only by kind and status
  expect(failed).toMatchObject({
    level: 'error',
    runId: runs[1]!.id,
    conversationId,
    workerId,
    err: expect.stringMatching(/\(HTTP 400\)$/),
  });
});

test("an HTTP request's failure line carries the request id its client got in X-Request-Id, and no database message", async () => {
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  // A real database failure: this insert breaks a check constraint, and PostgreSQL's error
  // detail would quote the whole row, the visitor's text included.
  const db = heed.services.db;
  await db.$executeRawUnsafe(
    `ALTER TABLE "Message" ADD CONSTRAINT log_scoping_refuses CHECK (position('refuse-me' in content) = 0) NOT VALID`,
  );
  try {
    const res = await fetch(`${heed.url}/trpc/message.send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${visitor.token}`, cookie: `session=${MARKER}` },
      body: JSON.stringify({ conversationId, clientMessageId: randomUUID(), content: `refuse-me ${MARKER}` }),
    });
    expect(res.status).toBe(500);
    const requestId = res.headers.get('x-request-id');
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    const failure = await heed.until('the failure line', () => lines().find((l) => l.requestId === requestId));
    expect(failure).toMatchObject({ level: 'error', msg: 'trpc call failed', path: 'message.send', requestId });
    expect(failure.err).toMatch(/^\w+/);
  } finally {
    await db.$executeRawUnsafe('ALTER TABLE "Message" DROP CONSTRAINT log_scoping_refuses');
  }
});

test.skipIf(isEmbeddedTestRun())(
  'a production worker process writes one JSON object a line, and its run lines are scoped',
  async () => {
    // this process's own worker steps aside, so the production one answers
    await Promise.all(heed.workers.splice(0).map((w) => w.stop()));
    const worker = await ChildWorker.start(heed.childEnv({ NODE_ENV: 'production', HEED_SECRET: PRODUCTION_SECRET }));
    const visitor = await heed.visitor();
    secrets.push(visitor.token);
    const conversationId = await visitor.conversation();
    try {
      heed.model.script({ text: `In production: ${REPLY_MARKER}` });
      await visitor.send(conversationId, `production ${MARKER}`);
      // a run whose 3 s lease lapsed on a starved machine is 'lost' and the batch answered by the next: wait for that one
      await heed.until('the completed run line', () =>
        worker.output
          .join('')
          .split('\n')
          .some((l) => l.includes(conversationId) && l.includes('"outcome":"completed"')),
      );
    } finally {
      // its exit code is test/pipeline/graceful-release.test.ts's concern; here, what it printed until then
      await worker.stop();
    }
    productionOutput = worker.output.join('');

    const printed = productionOutput.split('\n').filter((line) => line !== '');
    const parsed = printed.map((line) => JSON.parse(line) as Line);
    for (const line of parsed)
      expect(line).toMatchObject({ level: expect.any(String), time: expect.any(String), msg: expect.any(String), role: 'worker' });
    const workerId = parsed.find((l) => l.msg === 'worker started')?.workerId;
    expect(workerId).toEqual(expect.any(String));
    const run = await heed.services.db.run.findFirstOrThrow({ where: { conversationId, status: 'completed' }, select: { id: true } });
    expect(parsed.find((l) => l.msg === 'run finished' && l.outcome === 'completed')).toMatchObject({
      conversationId,
      workerId,
      runId: run.id,
    });
    expect(parsed.find((l) => l.msg === 'shutting down')).toMatchObject({ level: 'info', signal: 'SIGTERM' });
  },
  60_000,
);

test('no log line holds a visitor message, a model reply, a token, a stream ticket or a secret', async () => {
  const visitor = await heed.visitor();
  secrets.push(visitor.token, (await visitor.api.events.ticket.mutate()).ticket);
  await fetch(`${heed.url}/trpc/admin.titleChecks?input=${encodeURIComponent('{}')}`, {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
  });

  const everything = [...heed.logs, productionOutput].join('\n');
  expect(heed.logs.length).toBeGreaterThan(3);
  for (const secret of [MARKER, REPLY_MARKER, ...secrets]) {
    expect(everything, `a log line holds ${secret.slice(0, 16)}…`).not.toContain(secret);
  }
});
