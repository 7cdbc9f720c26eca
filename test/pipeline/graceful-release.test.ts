import { afterAll, beforeAll, expect, test } from 'vitest';
import { TestHeed } from '../support/harness.ts';
import { ChildWorker } from '../support/child-worker.ts';
import { isEmbeddedTestRun } from '../support/stores.ts';

/**
 * SIGTERM on a worker mid-reply (a deploy, a scale-in): the run is handed back at once and
 * another process answers the batch long before the lease would have expired. The lease is
 * a minute here, so only the release can explain a quick takeover.
 */
let heed: TestHeed;
beforeAll(async () => {
  heed = await TestHeed.start({ workers: 0, env: { LEASE_MS: '60000' } });
});
afterAll(() => heed?.stop());

test.skipIf(isEmbeddedTestRun())(
  'a worker stopped with SIGTERM mid-reply releases its run and another worker process answers the batch once, without waiting for the lease',
  async () => {
    heed.model.reset();
    heed.model.script(
      { text: 'This reply is cut short by a deploy and started again elsewhere.', chunkSize: 4, chunkDelayMs: 250 },
      { text: 'Answered by the worker that took over.' },
    );
    const leaving = await ChildWorker.start(heed.childEnv());
    const visitor = await heed.visitor();
    const conversationId = await visitor.conversation();
    const events = visitor.subscribe((await visitor.api.conversation.list.query()).cursor);
    await visitor.send(conversationId, 'Please answer even during a deploy.');
    await events.waitFor((e) => e.type === 'reply.delta');

    const stopping = leaving.stop();
    const staying = await ChildWorker.start(heed.childEnv());
    try {
      expect(await stopping).toBe(0);
      expect(leaving.output.join('')).toContain('released by a shutting-down worker');
      // well inside the 60 s lease: a detector for "waited out the lease", not a speed claim
      const done = await events.waitFor((e) => e.type === 'reply.completed', 30_000);
      expect(done.type === 'reply.completed' && done.message.content).toBe('Answered by the worker that took over.');

      const runs = await heed.services.db.run.findMany({
        where: { conversationId },
        orderBy: { fence: 'asc' },
        select: { status: true, error: true, fence: true },
      });
      expect(runs.map((r) => [r.status, r.error])).toEqual([
        ['abandoned', 'released'],
        ['completed', null],
      ]);
      const replies = await heed.services.db.message.findMany({ where: { conversationId, role: 'assistant' } });
      expect(replies.map((m) => m.content)).toEqual(['Answered by the worker that took over.']);
      expect(heed.model.requests).toHaveLength(2);
    } finally {
      events.close();
      await staying.stop();
    }
  },
);
