import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { freePort } from '../../api/src/embedded/free-port.ts';
import { startModelServer, type ModelServer } from '../../api/src/model-server/server.ts';
import { createTestDatabase } from '../../test/support/database.ts';
import { BenchProcess } from '../ingest/processes.ts';
import { BENCH_ORIGIN, BENCH_SITE_KEY, benchProcessEnv, deleteKeys } from '../ingest/process-env.ts';
import { closeSockets, mutate } from '../ingest/wire.ts';
import type { ProbeTarget } from './probe.ts';

/**
 * Heed as `npm start` runs it for a customer: the API and its reply worker in their own process,
 * in production mode, on a migrated database; the model server (another company's machines in
 * production) and the probing visitor, over HTTP, stay in the bench process. So the worker's
 * event loop carries only Heed's own work, not the model server's or the bench's.
 */
export interface HeedProcess extends ProbeTarget {
  send(conversationId: string, content: string): Promise<{ createdAt: string; clientMessageId: string }>;
  /** `message.typing`: the visitor types after their send `after` */
  typing(conversationId: string, after: string): Promise<void>;
  /** the conversation's user messages answered so far, and the runs that claimed them */
  batchesOf(conversationId: string): Promise<{ answered: number; runs: number }>;
  stop(): Promise<void>;
}

/** `settings`: the scheduling settings it runs with (DEBOUNCE_MS, SEND_SETTLE_MS…); the rest are defaults. */
export async function startHeedProcess(settings: Record<string, string>): Promise<HeedProcess> {
  const database = await createTestDatabase();
  const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
  const prefix = `heed-bench-debounce-${randomUUID().slice(0, 8)}:`;
  const [port, demoPort] = [await freePort(), await freePort()];
  const model: ModelServer = await startModelServer();
  const env = benchProcessEnv(
    { databaseUrl: database.url, redisUrl, prefix, port },
    {
      NODE_ENV: 'production',
      HEED_SECRET: randomBytes(24).toString('hex'),
      DEMO_PORT: String(demoPort),
      ...settings,
      OPENAI_BASE_URL: model.url,
      OPENAI_API_KEY: 'bench',
      OPENAI_MODEL: 'heed-local',
    },
  );
  const heed = BenchProcess.start('debounce-heed', 'api/src/main.ts', env);
  const db = new pg.Pool({ connectionString: database.url, max: 2 });
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    closeSockets();
    await Promise.allSettled([heed.stop(), model.close()]);
    await db.end().catch(() => undefined);
    await database.drop().catch(() => undefined);
    await deleteKeys(redisUrl, prefix).catch(() => undefined);
  };
  try {
    await heed.until(
      '/healthz',
      async () =>
        heed.said('API listening') &&
        (await fetch(`${url}/healthz`).then(
          (r) => r.ok,
          () => false,
        )),
    );
  } catch (err) {
    await stop();
    throw err;
  }

  let token = '';
  return {
    where: 'Heed in its own process (API + worker, production mode); model server and visitor outside it',
    model,
    async conversation(newVisitor) {
      if (newVisitor || !token)
        token = (await mutate<{ visitorToken: string }>(url, 'session.start', { siteKey: BENCH_SITE_KEY }, null, BENCH_ORIGIN))
          .visitorToken;
      return (await mutate<{ id: string }>(url, 'conversation.create', undefined, token, BENCH_ORIGIN)).id;
    },
    async send(conversationId, content) {
      const clientMessageId = randomUUID();
      const sent = await mutate<{ createdAt: string }>(
        url,
        'message.send',
        { conversationId, clientMessageId, content },
        token,
        BENCH_ORIGIN,
      );
      return { createdAt: sent.createdAt, clientMessageId };
    },
    async typing(conversationId, after) {
      await mutate(url, 'message.typing', { conversationId, after }, token, BENCH_ORIGIN);
    },
    async batchesOf(conversationId) {
      const { rows } = await db.query<{ answered: number; runs: number }>(
        `SELECT count(*) FILTER (WHERE state = 'answered')::int AS answered, count(DISTINCT "runId")::int AS runs
         FROM "Message" WHERE "conversationId" = $1 AND role = 'user'`,
        [conversationId],
      );
      return rows[0]!;
    },
    async firstRun(conversationId) {
      const { rows } = await db.query<{ startedAt: Date; status: string }>(
        'SELECT "startedAt", status FROM "Run" WHERE "conversationId" = $1 ORDER BY fence LIMIT 1',
        [conversationId],
      );
      const run = rows[0];
      return run && { startedAt: run.startedAt, ended: run.status !== 'claimed' && run.status !== 'streaming' };
    },
    stop,
  };
}
