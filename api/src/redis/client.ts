import { createClient } from 'redis';
import type { Logger } from '../logging/logger.ts';
import { boundCommands } from './command-deadline.ts';
import { MemoryRedis } from './memory-redis.ts';

// no per-command timer: boundCommands bounds every command by signals shared by up to 32 commands
const connect = (url: string, name: string) => createClient({ url, name, commandOptions: { timeout: 0 } });

export type Redis = ReturnType<typeof connect>;

/** The embedded mode's in-process coordination (no REDIS_URL): every client of one name shares its keys and channels. */
export const isMemoryRedisUrl = (url: string) => url.startsWith('memory:');

/** This client is the in-process store: everything it coordinates lives in this one process. */
export const isInProcess = (redis: Redis) => (redis as unknown) instanceof MemoryRedis;

/**
 * Connects a node-redis client; errors are logged rather than crashing the process (it
 * reconnects). A `memory://<name>` URL gives the in-process store instead (`MemoryRedis`),
 * which serves the commands Heed uses.
 */
export async function createRedis(url: string, name = 'heed', logger?: Logger): Promise<Redis> {
  if (isMemoryRedisUrl(url)) return new MemoryRedis(url) as unknown as Redis;
  const client = connect(url, name);
  boundCommands(client as unknown as Parameters<typeof boundCommands>[0]);
  client.on('error', (err: Error) =>
    logger ? logger.warn({ redis: name, err }, 'redis connection error') : console.error(`[redis:${name}]`, err.message),
  );
  await client.connect();
  return client;
}

/** Builds prefixed key names, so deployments and test runs can share a Redis safely. */
export function keys(prefix: string) {
  return {
    /** per-conversation run lock (SET NX PX with a random token) */
    lock: (conversationId: string) => `${prefix}lock:conversation:${conversationId}`,
    /** text so far of a streaming reply, for clients that reconnect mid-reply */
    replyText: (runId: string) => `${prefix}reply:${runId}`,
    /** per-visitor live channel: event-log wake-ups and reply deltas */
    visitorChannel: (visitorId: string) => `${prefix}visitor:${visitorId}`,
    /** workers listen here for "a batch was scheduled" to wake before their poll */
    scheduleChannel: () => `${prefix}schedule`,
    /** the console's one channel: ids of conversations whose state just changed (any site) */
    consoleChannel: () => `${prefix}console`,
  };
}
export type Keys = ReturnType<typeof keys>;
