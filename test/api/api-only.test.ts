import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { loadConfig } from '../../api/src/config.ts';
import { freePort } from '../../api/src/embedded/free-port.ts';
import { ChildWorker } from '../support/child-worker.ts';
import { makeClient, TestHeed } from '../support/harness.ts';

/**
 * HEED_WORKER=0: `npm start` serves the API alone and `npm run worker` processes answer, so the
 * two scale apart (the ingest bench runs them so).
 */
let heed: TestHeed;
const METRICS_TOKEN = 'metrics-token-for-tests-0123456789';
beforeAll(async () => {
  heed = await TestHeed.start({ workers: 0, env: { DEBOUNCE_MS: '50' } });
});
afterAll(() => heed?.stop());

test('an API-only process stores sends and answers none; a worker process beside it answers them', async () => {
  const port = await freePort();
  const api = spawn(process.execPath, ['--import', 'tsx', 'api/src/main.ts'], {
    cwd: fileURLToPath(new URL('../../', import.meta.url)),
    env: heed.childEnv({ HEED_WORKER: '0', PORT: String(port), DEMO_PORT: String(await freePort()), METRICS_TOKEN }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  api.stdout.on('data', (d) => (output += d));
  api.stderr.on('data', (d) => (output += d));
  let worker: ChildWorker | null = null;
  try {
    await heed.until('the API-only process listens', () => output.includes('API listening'), 60_000);
    expect(output).toContain('HEED_WORKER=0: no reply worker in this process');

    const url = `http://127.0.0.1:${port}`;
    const { visitorToken } = await makeClient(url, null).session.start.mutate({ siteKey: heed.siteKey });
    const visitor = makeClient(url, visitorToken);
    const { id: conversationId } = await visitor.conversation.create.mutate();
    heed.model.script({ text: 'Yes, we ship to Norway.' });
    await visitor.message.send.mutate({ conversationId, clientMessageId: 'norway-1', content: 'Do you ship to Norway?' });
    // the send is stored and woke the workers; this process has none: it never looked for a due batch
    await heed.until('the send stored', () => heed.services.db.message.count({ where: { conversationId } }));
    const metrics = await (await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
    expect(metrics).toMatch(/^heed_worker_polls_total 0$/m);
    expect(heed.model.requests).toHaveLength(0);

    worker = await ChildWorker.start(heed.childEnv());
    const reply = await heed.until('the worker process answers', () =>
      heed.services.db.message.findFirst({ where: { conversationId, role: 'assistant' }, select: { content: true } }),
    );
    expect(reply.content).toBe('Yes, we ship to Norway.');
  } finally {
    await worker?.stop();
    api.kill('SIGTERM');
  }
});

test('HEED_WORKER=0 is refused without a shared database and Redis: no other process could answer', () => {
  expect(() => loadConfig({ HEED_WORKER: '0' })).toThrow(/HEED_WORKER: HEED_WORKER=0 needs DATABASE_URL and REDIS_URL/);
  expect(() =>
    loadConfig({ HEED_WORKER: '0', DATABASE_URL: 'postgresql://127.0.0.1/heed', REDIS_URL: 'redis://127.0.0.1:6379' }),
  ).not.toThrow();
});
