import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createRedis, type Redis } from './client.ts';
import { runScript } from './run-script.ts';
import { EXTEND_LOCK } from './scripts.ts';

let redis: Redis;
const key = `heed-test-run-script:${randomUUID()}`;
beforeAll(async () => {
  redis = await createRedis(process.env.REDIS_URL || 'redis://127.0.0.1:6379', 'run-script-test');
});
afterAll(async () => {
  await redis.del(key);
  await redis.quit();
});

test('a script runs by its SHA once cached, and again by its body when Redis lost its cache (a restart, SCRIPT FLUSH)', async () => {
  await redis.set(key, 'token');
  expect(await runScript(redis, EXTEND_LOCK, { keys: [key], arguments: ['token', '60000'] })).toBe(1);
  expect((await redis.scriptExists(createHashOf(EXTEND_LOCK)))[0]).toBeTruthy();

  await redis.scriptFlush();
  expect(await runScript(redis, EXTEND_LOCK, { keys: [key], arguments: ['token', '60000'] })).toBe(1);
  expect(await runScript(redis, EXTEND_LOCK, { keys: [key], arguments: ['someone else', '60000'] })).toBe(0);
});

test("a script's own error is thrown, not retried as NOSCRIPT", async () => {
  await expect(runScript(redis, `return redis.error_reply('boom')`, { keys: [], arguments: [] })).rejects.toThrow('boom');
});

const createHashOf = (script: string) => createHash('sha1').update(script).digest('hex');
