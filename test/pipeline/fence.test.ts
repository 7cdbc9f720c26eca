import { afterAll, beforeAll, expect, test } from 'vitest';
import { TestHeed } from '../support/harness.ts';
import { claimBatch } from '../../api/src/chat/schedule/claim-batch.ts';
import { completeRun, failRun } from '../../api/src/chat/run/finish-run.ts';
import { FenceLostError } from '../../api/src/chat/schedule/fence.ts';

let heed: TestHeed;
beforeAll(async () => {
  heed = await TestHeed.start({ workers: 0 });
});
afterAll(() => heed?.stop());

test('a run whose lease expired writes nothing once a newer run has claimed its batch', async () => {
  const { db, bus } = heed.services;
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  await visitor.send(conversationId, 'Is anyone there?');

  const stale = await claimBatch(heed.services, { conversationId, workerId: 'paused-worker', leaseMs: 60_000 });
  expect(stale).not.toBeNull();
  // while its lease is valid, nobody else can claim
  expect(await claimBatch(heed.services, { conversationId, workerId: 'eager-worker', leaseMs: 60_000 })).toBeNull();

  // the paused worker's lease runs out; a newer run takes the batch over
  await db.run.update({ where: { id: stale!.runId }, data: { leaseUntil: new Date(Date.now() - 1000) } });
  const fresh = await claimBatch(heed.services, { conversationId, workerId: 'new-worker', leaseMs: 60_000 });
  expect(fresh).toMatchObject({ messageIds: stale!.messageIds });
  expect(fresh!.fence).toBeGreaterThan(stale!.fence);

  const before = await snapshot(conversationId);
  const late = { text: 'A late reply from a worker that lost its lease', attempts: 1, promptTokens: null, completionTokens: null };
  await expect(completeRun(heed.services, stale!, late)).rejects.toBeInstanceOf(FenceLostError);
  await expect(failRun(db, bus, stale!, { code: 'model_error', attempts: 1 })).rejects.toBeInstanceOf(FenceLostError);
  expect(await snapshot(conversationId)).toEqual(before);

  await completeRun(heed.services, fresh!, { ...late, text: 'The one reply' });
  const replies = await db.message.findMany({ where: { conversationId, role: 'assistant' }, select: { content: true } });
  expect(replies).toEqual([{ content: 'The one reply' }]);
  const runs = await db.run.findMany({ where: { conversationId }, orderBy: { fence: 'asc' }, select: { status: true } });
  expect(runs.map((r) => r.status)).toEqual(['abandoned', 'completed']);
});

async function snapshot(conversationId: string) {
  const { db } = heed.services;
  return {
    messages: await db.message.findMany({
      where: { conversationId },
      orderBy: { seq: 'asc' },
      select: { id: true, state: true, runId: true, content: true },
    }),
    conversation: await db.conversation.findUnique({
      where: { id: conversationId },
      select: { lastAssistantAt: true, excerpt: true, updatedAt: true },
    }),
    events: await db.event.count({ where: { conversationId } }),
  };
}
