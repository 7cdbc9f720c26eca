import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { TestHeed } from '../../../test/support/harness.ts';
import { logHeads } from './log-heads.ts';

let heed: TestHeed;
beforeAll(async () => {
  heed = await TestHeed.start({ workers: 0, env: { SSE_CATCHUP_MS: '300' } });
});
afterAll(() => heed?.stop());

const newest = async (visitorId: string) =>
  (await heed.services.db.event.findFirst({ where: { visitorId }, orderBy: { id: 'desc' }, select: { id: true } }))?.id ?? 0n;

test('heads asked together are each their own visitor’s newest event id, 0 for a visitor without events', async () => {
  const visitors = await Promise.all(Array.from({ length: 5 }, () => heed.visitor()));
  await Promise.all(visitors.slice(0, 3).map((v) => v.conversation()));
  const heads = logHeads(heed.services.db);
  const asked = [...visitors.map((v) => v.visitorId), visitors[0]!.visitorId, randomUUID()];
  const got = await Promise.all(asked.map((id) => heads.head(id)));
  expect(got).toEqual(await Promise.all(asked.map(newest)));
  expect(got.at(-1)).toBe(0n);
});

test('many quiet streams on one process each get their own log rows once, in order, without any wake-up', async () => {
  const visitors = await Promise.all(Array.from({ length: 12 }, () => heed.visitor()));
  const conversations = await Promise.all(visitors.map((v) => v.conversation()));
  const before = await heed.openStreams();
  const logs = await Promise.all(visitors.map(async (v) => v.subscribe((await v.api.conversation.list.query()).cursor)));
  await heed.streamOpened(before, visitors.length);
  // committed without a wake-up (as when publishes are lost in a Redis outage): only the quiet-stream check finds them
  const written = await Promise.all(
    visitors.map(async (v, i) => {
      const ids: string[] = [];
      for (let n = 0; n < 3; n++) {
        const conversationId = conversations[i]!;
        const { id } = await heed.services.db.event.create({
          data: {
            visitorId: v.visitorId,
            conversationId,
            type: 'conversation.updated',
            payload: { type: 'conversation.updated', conversationId, conversation: {} },
          },
        });
        ids.push(id.toString());
      }
      return ids;
    }),
  );
  await Promise.all(logs.map((log, i) => log.waitFor((e) => e.eventId === written[i]!.at(-1), 10_000)));
  logs.forEach((log, i) => expect(log.durable().map((e) => e.eventId)).toEqual(written[i]));
  for (const log of logs) log.close();
});
