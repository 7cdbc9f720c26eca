/**
 * The Redis tap's process (see redis-tap.ts): `redis-tap-main.ts <redis url> <key prefix>`.
 * Prints `ready` once subscribed, then one JSON line per live reply event on a visitor channel.
 */
import { createClient } from 'redis';
import { z } from 'zod';

const [url, prefix] = process.argv.slice(2);
const busShape = z.object({
  kind: z.string(),
  at: z.number().optional(),
  event: z.object({ type: z.string(), runId: z.string(), conversationId: z.string() }).optional(),
});

const client = createClient({ url, name: 'heed-chaos-tap' });
client.on('error', () => undefined); // it reconnects (and subscribes again) after each Redis restart
await client.connect();
await client.pSubscribe(`${prefix}visitor:*`, (raw) => {
  const at = Date.now();
  const parsed = busShape.safeParse(JSON.parse(raw));
  const event = parsed.success ? parsed.data.event : undefined;
  if (!event) return;
  process.stdout.write(
    `${JSON.stringify({ runId: event.runId, conversationId: event.conversationId, type: event.type, at, publishedAt: parsed.data?.at ?? null })}\n`,
  );
});
process.stdout.write('ready\n');
process.on('SIGTERM', () => void client.quit().finally(() => process.exit(0)));
