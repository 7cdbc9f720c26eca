import { afterAll, beforeAll, expect, test } from 'vitest';
import { TestHeed } from '../support/harness.ts';
import { ChildWorker } from '../support/child-worker.ts';
import { finalTurn } from '../support/conversation-text.ts';
import { batchItems } from '../../api/src/chat/context/pending-turn.ts';
import { isEmbeddedTestRun } from '../support/stores.ts';

let heed: TestHeed;
beforeAll(async () => {
  heed = await TestHeed.start({ workers: 0 });
});
afterAll(() => heed?.stop());

test.skipIf(isEmbeddedTestRun())(
  'two worker processes under a burst of sends answer every message exactly once, never two runs at once per conversation',
  async () => {
    heed.model.reset();
    heed.model.setResponder(() => ({ text: 'Noted, answering now with a few words.', chunkDelayMs: 15 }));
    const workers = await Promise.all([ChildWorker.start(heed.childEnv()), ChildWorker.start(heed.childEnv())]);
    try {
      const visitor = await heed.visitor();
      const conversations = await Promise.all([1, 2, 3].map(() => visitor.conversation()));
      const sent: string[] = [];
      // 3 conversations × 8 sends, jittered around the debounce so batches and mid-run sends mix
      await Promise.all(
        conversations.map(async (conversationId, c) => {
          for (let i = 0; i < 8; i++) {
            const text = `conv${c}-msg${i}`;
            await visitor.send(conversationId, text);
            sent.push(text);
            await new Promise((r) => setTimeout(r, 50 + Math.random() * 400));
          }
        }),
      );
      const db = heed.services.db;
      await heed.until(
        'every message answered',
        async () => (await db.message.count({ where: { role: 'user', state: { not: 'answered' } } })) === 0,
        40_000,
      );

      // exactly once: every message is in the final turn of exactly one model request, and claimed by one completed run
      for (const text of sent) {
        const hits = heed.model.requests.filter((r) =>
          (batchItems(finalTurn(r))?.map((item) => item.text) ?? [finalTurn(r)]).includes(text),
        );
        expect(hits, text).toHaveLength(1);
      }
      const users = await db.message.findMany({ where: { role: 'user' }, select: { runId: true, run: { select: { status: true } } } });
      expect(users.every((u) => u.run?.status === 'completed')).toBe(true);
      const replies = await db.message.groupBy({ by: ['runId'], where: { role: 'assistant' }, _count: true });
      expect(replies.every((r) => r._count === 1)).toBe(true);

      // never overlapping: per conversation, model requests do not overlap in time (a request is
      // the conversation's when its history or final turn holds its words; recall may quote the
      // visitor's other conversations, but only in a system message)
      for (const [c] of conversations.entries()) {
        const spans = heed.model.requests
          .filter((r) => JSON.stringify(r.body.messages?.filter((m) => m.role !== 'system')).includes(`conv${c}-`))
          .map((r) => [r.receivedAt, r.finishedAt ?? Infinity] as const)
          .sort((a, b) => a[0] - b[0]);
        for (let i = 1; i < spans.length; i++) expect(spans[i]![0]).toBeGreaterThanOrEqual(spans[i - 1]![1]);
      }
      // batching kept runs below sends
      const runs = await db.run.findMany({ select: { status: true } });
      expect(runs.filter((r) => r.status === 'completed').length).toBeLessThan(sent.length);
    } finally {
      await Promise.all(workers.map((w) => w.stop()));
    }
  },
);

test.skipIf(isEmbeddedTestRun())('a worker killed mid-reply: another worker answers the batch once after the lease expires', async () => {
  heed.model.reset();
  heed.model.script({ text: 'This reply never finishes because its worker dies.', chunkSize: 4, chunkDelayMs: 200 });
  const doomed = await ChildWorker.start(heed.childEnv());
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  const events = visitor.subscribe();
  await visitor.send(conversationId, 'Please answer me even if a server crashes.');
  await events.waitFor((e) => e.type === 'reply.delta');
  await doomed.kill();

  heed.model.script({ text: 'Here is your answer, from the survivor.' });
  const survivor = await heed.startWorker();
  await events.waitFor((e) => e.type === 'reply.completed');
  await new Promise((r) => setTimeout(r, 500));

  const db = heed.services.db;
  const replies = await db.message.findMany({ where: { conversationId, role: 'assistant' }, select: { content: true } });
  expect(replies).toEqual([{ content: 'Here is your answer, from the survivor.' }]);
  const runs = await db.run.findMany({
    where: { conversationId },
    orderBy: { fence: 'asc' },
    select: { status: true, fence: true, workerId: true },
  });
  expect(runs.map((r) => r.status)).toEqual(['abandoned', 'completed']);
  expect(runs[1]!.workerId).toBe(survivor.id);
  expect(heed.model.requests.map(finalTurn)).toEqual([
    'Please answer me even if a server crashes.',
    'Please answer me even if a server crashes.',
  ]);
  // the visitor's view: one completed reply, unread, not live
  const { conversations } = await visitor.api.conversation.list.query();
  expect(conversations[0]).toMatchObject({ live: false, unread: true, excerpt: 'Here is your answer, from the survivor.' });
  events.close();
  await survivor.stop();
  heed.workers = heed.workers.filter((w) => w !== survivor);
});
