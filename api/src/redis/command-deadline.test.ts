import { randomUUID } from 'node:crypto';
import { AbortError } from 'redis';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { waitUntil } from '../../../test/support/harness.ts';
import { severableProxy, type SeverableProxy } from '../../../test/support/severable-proxy.ts';
import { isEmbeddedTestRun } from '../../../test/support/stores.ts';
import { isInfrastructureError } from '../chat/run/run-errors.ts';
import { createLogger } from '../logging/logger.ts';
import { memoryDestination } from '../logging/memory-destination.ts';
import { createRedis, type Redis } from './client.ts';

/** Every command here goes to the real Redis, through a proxy that can cut it off. */
let proxy: SeverableProxy;
let redis: Redis;
const key = `heed-test-deadline:${randomUUID()}`;
beforeAll(async () => {
  if (isEmbeddedTestRun()) return;
  const url = new URL(process.env.REDIS_URL || 'redis://127.0.0.1:6379');
  proxy = await severableProxy({ host: url.hostname, port: Number(url.port || 6379) });
  // the outage's connection errors go to a log of their own
  redis = await createRedis(`redis://127.0.0.1:${proxy.port}`, 'deadline-test', createLogger('warn', memoryDestination()));
});
afterAll(async () => {
  await redis?.del([key, `${key}:n`, `${key}:burst`]).catch(() => undefined);
  await redis?.quit().catch(() => undefined);
  await proxy?.close();
});

test.skipIf(isEmbeddedTestRun())(
  'a command sent while Redis is away fails (as a store outage) instead of waiting for its return, and the client works again once Redis is back',
  async () => {
    await redis.set(key, 'before');
    expect(await redis.get(key)).toBe('before');

    await proxy.sever();
    // once the client has seen the connection end, commands wait for its return in its queue
    await waitUntil('the client to see the connection end', () => !redis.isReady, 5_000);
    expect(redis.isReady).toBe(false);
    const err = await redis.get(key).then(
      () => new Error('expected the command to fail'),
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(AbortError);
    // a run that meets it is released and tried again, not failed as the model's fault
    expect(isInfrastructureError(err)).toBe(true);

    await proxy.restore();
    // the client reconnects on its own
    await waitUntil('the client to reconnect', () => redis.isReady, 10_000);
    await redis.set(key, 'after');
    expect(await redis.get(key)).toBe('after');
  },
  30_000,
);

test.skipIf(isEmbeddedTestRun())(
  'commands spread over a second while Redis answers all succeed, none cut short by an earlier signal',
  async () => {
    const values = await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        await new Promise((r) => setTimeout(r, i * 25));
        return redis.incr(`${key}:n`);
      }),
    );
    expect(values.sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
  },
);

test.skipIf(isEmbeddedTestRun())(
  'a burst of 5,000 commands at once all succeed, over the many signals they are spread across',
  async () => {
    const values = await Promise.all(Array.from({ length: 5_000 }, () => redis.incr(`${key}:burst`)));
    expect(Math.max(...values)).toBe(5_000);
    expect(new Set(values).size).toBe(5_000);
  },
);
