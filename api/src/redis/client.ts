import { createClient } from 'redis';

const connect = (url: string, name: string) => createClient({ url, name });

export type Redis = ReturnType<typeof connect>;

/** Connects a node-redis client; errors are logged rather than crashing the process (it reconnects). */
export async function createRedis(url: string, name = 'heed'): Promise<Redis> {
  const client = connect(url, name);
  client.on('error', (err: Error) => console.error(`[redis:${name}]`, err.message));
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
  };
}
export type Keys = ReturnType<typeof keys>;
