import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, test } from 'vitest';
import { ConversationLock } from '../../api/src/chat/schedule/lock.ts';
import { EventBus, type BusMessage } from '../../api/src/events/event-bus.ts';
import { createRedis, keys as makeKeys, type Redis } from '../../api/src/redis/client.ts';
import { RELAY_TEXT } from '../../api/src/redis/scripts.ts';
import { isEmbeddedTestRun } from '../support/stores.ts';

/**
 * The embedded mode's in-process store must answer Heed's Redis commands exactly as Redis
 * does: the same scenarios run against a real Redis (when one answers) and `memory://`, and
 * expect the same answers. A command or script Heed starts using without a twin fails here.
 */
const targets = isEmbeddedTestRun() ? ['memory://contract'] : ['memory://contract', process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'];
const opened: Redis[] = [];
afterAll(async () => {
  await Promise.all(opened.map((r) => r.quit()));
});

describe.each(targets)('Heed’s Redis commands on %s', (url) => {
  const prefix = `heed-contract-${randomUUID().slice(0, 8)}:`;
  const open = async () => {
    const r = await createRedis(url, 'contract');
    opened.push(r);
    return r;
  };

  test('a conversation lock admits one holder, extends and releases only with its token', async () => {
    const redis = await open();
    const key = `${prefix}lock`;
    const first = await ConversationLock.acquire(redis, key, 5_000);
    expect(first).not.toBeNull();
    expect(await ConversationLock.acquire(redis, key, 5_000)).toBeNull();
    expect(await first!.extend()).toBe(true);
    // a stranger's token neither extends nor releases it
    expect(
      await redis.eval(`if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`, {
        keys: [key],
        arguments: ['not-mine'],
      }),
    ).toBe(0);
    await first!.release();
    expect(await first!.extend()).toBe(false);
    const second = await ConversationLock.acquire(redis, key, 5_000);
    expect(second).not.toBeNull();
    await second!.release();
  });

  test('a lease runs out by itself (SET NX PX), and another holder may then take it', async () => {
    const redis = await open();
    const key = `${prefix}lease`;
    expect(await ConversationLock.acquire(redis, key, 60)).not.toBeNull();
    await sleep(120);
    expect(await redis.get(key)).toBeNull();
    expect(await ConversationLock.acquire(redis, key, 60)).not.toBeNull();
  });

  test('MULTI appends a reply’s text, keeps it for a while and publishes in the same step', async () => {
    const [redis, subscriber] = [await open(), await open()];
    const key = `${prefix}reply`;
    const channel = `${prefix}channel`;
    const heard: string[] = [];
    await subscriber.subscribe(channel, (m) => heard.push(m));
    await redis.multi().append(key, 'Hello').pExpire(key, 5_000).publish(channel, 'one').exec();
    await redis.multi().append(key, ', world').pExpire(key, 5_000).publish(channel, 'two').exec();
    expect(await redis.get(key)).toBe('Hello, world');
    await redis.multi().set(key, 'kept').pExpire(key, 5_000).publish(channel, 'three').exec();
    expect(await redis.get(key)).toBe('kept');
    await expect.poll(() => heard).toEqual(['one', 'two', 'three']);
    expect(await redis.del(key)).toBe(1);
    expect(await redis.del(key)).toBe(0);
    expect(await redis.pExpire(key, 1_000)).toBe(0);
    await subscriber.unsubscribe(channel);
    await redis.publish(channel, 'unheard');
    await sleep(50);
    expect(heard).toHaveLength(3);
  });

  test('the event bus wakes a visitor’s subscribers in publish order, and stops after unsubscribe', async () => {
    const bus = new EventBus(await open(), await open(), makeKeys(prefix));
    const seen: BusMessage[] = [];
    const stop = await bus.subscribe('visitor-1', (m) => seen.push(m));
    await bus.wake('visitor-1');
    await bus.wake('visitor-2');
    await bus.wake('visitor-1');
    await expect.poll(() => seen.length).toBe(2);
    expect(seen.every((m) => m.kind === 'wake')).toBe(true);
    await stop();
    await bus.wake('visitor-1');
    await sleep(50);
    expect(seen).toHaveLength(2);
    expect(await (await open()).ping()).toBe('PONG');
  });

  test('relayed reply text is written and published only before the run’s time fence, by the store’s own clock', async () => {
    const [redis, subscriber] = [await open(), await open()];
    const key = `${prefix}relay`;
    const channel = `${prefix}relay-channel`;
    const heard: string[] = [];
    await subscriber.subscribe(channel, (m) => heard.push(m));
    const relay = (deadline: string, mode: 'append' | 'set', text: string, message: string) =>
      redis.eval(RELAY_TEXT, { keys: [key], arguments: [deadline, mode, text, '5000', channel, message] });
    expect(await relay(String(Date.now() + 60_000), 'append', 'Hel', 'd1')).toBe(1);
    expect(await relay('', 'append', 'lo', 'd2')).toBe(1);
    // a worker that froze past its fence: nothing written, nothing published
    expect(await relay(String(Date.now() - 1), 'append', ' stale', 'late')).toBe(0);
    expect(await redis.get(key)).toBe('Hello');
    expect(await relay(String(Date.now() + 60_000), 'set', 'Hi', 'snapshot')).toBe(1);
    expect(await redis.get(key)).toBe('Hi');
    await expect.poll(() => heard).toEqual(['d1', 'd2', 'snapshot']);
  });

  test('a client that quit refuses every command, as a connection that is gone does', async () => {
    const redis = await createRedis(url, 'quitting');
    await redis.quit();
    await expect(redis.publish(`${prefix}c`, 'x')).rejects.toThrow(/closed/i);
    await expect(redis.get(`${prefix}k`)).rejects.toThrow(/closed/i);
  });

  test('a stream that reconnects at once hears its channel: the new subscription waits for the old one to leave', async () => {
    const bus = new EventBus(await open(), await open(), makeKeys(prefix));
    for (let round = 0; round < 5; round++) {
      const stopOld = await bus.subscribe('reloading', () => {});
      const leaving = stopOld(); // a reload: the old stream closes while the new one opens
      const heard: BusMessage[] = [];
      const stopNew = await bus.subscribe('reloading', (m) => heard.push(m));
      await leaving;
      await bus.wake('reloading');
      await expect.poll(() => heard.length).toBe(1);
      await stopNew();
    }
  });
});
