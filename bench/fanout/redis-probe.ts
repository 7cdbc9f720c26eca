import { createRedis } from '../../api/src/redis/client.ts';
import { preciseNow } from '../stats.ts';
import { STAMP } from './streams.ts';

/**
 * A second listener on a sample of the visitors' channels, straight on Redis: the publish →
 * Redis subscriber latency of the same deltas the streams receive, without the API. Beside
 * the streams' own figure it tells which side of the API a delay is on (the publisher and
 * Redis, or the API and the socket to the client).
 */
export async function startRedisProbe(
  redisUrl: string,
  channels: readonly string[],
  onDelta: (latencyMs: number, stamp: string) => void,
): Promise<() => Promise<void>> {
  const subscriber = await createRedis(redisUrl, 'fanout-probe');
  await subscriber.subscribe([...channels], (raw) => {
    const now = preciseNow();
    for (const m of raw.matchAll(STAMP)) onDelta(now - Number(m[1]), m[1]!);
  });
  return async () => {
    await subscriber.quit().catch(() => undefined);
  };
}
