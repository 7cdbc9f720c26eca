import { afterAll, beforeAll, expect, test } from 'vitest';
import { TestHeed } from '../support/harness.ts';
import { ChildWorker } from '../support/child-worker.ts';
import { isEmbeddedTestRun } from '../support/stores.ts';

/**
 * A worker frozen past its lease (SIGSTOP: a long GC pause, a suspended VM) wakes up with
 * model chunks still buffered while another worker has taken its batch over. Visitors must
 * never see a word of the abandoned run: not stored (the fence) and not relayed live.
 */
let heed: TestHeed;
beforeAll(async () => {
  heed = await TestHeed.start({ workers: 0, env: { LEASE_MS: '1500' } });
});
afterAll(() => heed?.stop());

test.skipIf(isEmbeddedTestRun())(
  'a worker resumed after SIGSTOP relays nothing of the run it lost; the batch is answered once by the worker that took over',
  async () => {
    heed.model.reset();
    // by when the request comes, not by its rank: on a loaded machine the frozen worker may lose and retake its own lease first
    let frozenYet = false;
    heed.model.setResponder(() =>
      frozenYet
        ? { text: 'Answered by the worker that took over.', delayMs: 500 }
        : { text: 'Frozen words that nobody may ever see because this worker stops.', chunkSize: 4, chunkDelayMs: 150 },
    );
    const frozen = await ChildWorker.start(heed.childEnv());
    const visitor = await heed.visitor();
    const conversationId = await visitor.conversation();
    const events = visitor.subscribe((await visitor.api.conversation.list.query()).cursor);
    await visitor.send(conversationId, 'Please answer even if a worker freezes.');
    const first = await events.waitFor((e) => e.type === 'reply.delta');
    const lostRunId = first.type === 'reply.delta' ? first.runId : '';

    frozen.child.kill('SIGSTOP');
    frozenYet = true;
    // only a claim made after the freeze: on a loaded machine the frozen worker may have lost and retaken its own lease before
    const frozenAt = events.events.length;
    const taker = await ChildWorker.start(heed.childEnv());
    try {
      const started = await events.waitFor(
        (e) => e.type === 'run.started' && e.runId !== lostRunId && events.events.indexOf(e) >= frozenAt,
        20_000,
      );
      const startedAt = events.events.indexOf(started);
      frozen.child.kill('SIGCONT');
      await events.waitFor((e) => e.type === 'reply.completed', 20_000);
      // give the resumed worker time to push anything it still had
      await new Promise((r) => setTimeout(r, 1500));

      const lateFromLostRun = events.events
        .slice(startedAt)
        .filter((e) => (e.type === 'reply.delta' || e.type === 'reply.snapshot') && e.runId === lostRunId);
      expect(lateFromLostRun).toEqual([]);
      const replies = await heed.services.db.message.findMany({ where: { conversationId, role: 'assistant' }, select: { content: true } });
      expect(replies.map((m) => m.content)).toEqual(['Answered by the worker that took over.']);
    } finally {
      events.close();
      frozen.child.kill('SIGCONT');
      await Promise.all([frozen.stop(), taker.stop()]);
    }
  },
);
