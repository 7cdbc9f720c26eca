import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { createServices } from '../../api/src/services.ts';
import { runTitlePass } from '../../api/src/titles/title-pass.ts';
import { titleSettings } from '../../api/src/titles/title-settings.ts';
import { ChildWorker } from '../support/child-worker.ts';
import { TestHeed } from '../support/harness.ts';
import {
  sendAndAwaitReply,
  titleAnswer,
  titleAwareResponder,
  titleChecks,
  titleData,
  titleRequests,
  titleRow,
  resetTitleState,
} from '../support/titles.ts';
import { isEmbeddedTestRun } from '../support/stores.ts';

let heed: TestHeed;
beforeAll(async () => {
  heed = await TestHeed.start();
});
afterAll(() => heed?.stop());
beforeEach(() => resetTitleState(heed));

/** Titles each conversation after its first message ("topic 3" → "Topic 3 title"), a little slowly, so passes overlap. */
const titleFromFirstMessage = titleAwareResponder((req) => ({ ...titleAnswer(`${titleData(req).first_messages[0]} title`), delayMs: 50 }));

test('four passes at once in two processes’ worth of connections title each conversation exactly once', async () => {
  heed.model.setResponder(titleFromFirstMessage);
  const visitor = await heed.visitor();
  const conversations = await Promise.all([1, 2, 3, 4, 5, 6].map(() => visitor.conversation()));
  await Promise.all(conversations.map((id, i) => sendAndAwaitReply(heed, visitor, id, `Topic ${i + 1}`)));

  const other = await createServices(heed.config, { logTo: { write: () => {} } });
  try {
    // every pass tries to claim all six at once
    const settings = { ...titleSettings(heed.config), concurrency: 10 };
    const results = await Promise.all([heed.services, other, heed.services, other].map((s) => runTitlePass(s, settings)));
    expect(results.reduce((n, r) => n + r.claimed, 0)).toBe(6);
    expect(results.reduce((n, r) => n + r.outcomes.changed, 0)).toBe(6);
  } finally {
    await other.close();
  }

  expect(titleRequests(heed)).toHaveLength(6);
  const asked = titleRequests(heed)
    .map((r) => titleData(r).first_messages[0])
    .sort();
  expect(asked).toEqual(['Topic 1', 'Topic 2', 'Topic 3', 'Topic 4', 'Topic 5', 'Topic 6']);
  for (const [i, id] of conversations.entries()) {
    expect(await titleRow(heed, id)).toMatchObject({ title: `Topic ${i + 1} title`, titleState: 'generated' });
    expect((await titleChecks(heed, id)).map((c) => c.outcome)).toEqual(['changed']);
  }
});

test.skipIf(isEmbeddedTestRun())(
  'a generating row whose lease expired is recovered at start-up; one whose lease is live is left alone',
  async () => {
    heed.model.setResponder(titleFromFirstMessage);
    const visitor = await heed.visitor();
    const [crashed, live] = [await visitor.conversation(), await visitor.conversation()];
    await sendAndAwaitReply(heed, visitor, crashed, 'Crashed topic');
    await sendAndAwaitReply(heed, visitor, live, 'Live topic');
    // as a pass leaves rows it claimed: generating, request cleared; one process died long ago, one is still working
    const db = heed.services.db;
    await db.$executeRaw`UPDATE "Conversation" SET "titleState" = 'generating', "titleRequestedAt" = NULL, "titleLeaseUntil" = now() - interval '1 minute' WHERE id = ${crashed}::uuid`;
    await db.$executeRaw`UPDATE "Conversation" SET "titleState" = 'generating', "titleRequestedAt" = NULL, "titleLeaseUntil" = now() + interval '1 hour' WHERE id = ${live}::uuid`;
    const before = await titleRow(heed, crashed);

    // a process starting up (npm run worker, its title timer off) recovers it in boot
    const worker = await ChildWorker.start(heed.childEnv({ TITLE_PASS_MS: '0' }));
    await worker.stop();
    expect(worker.output.join('')).toContain('recovered 1 interrupted title generation');

    const recovered = await titleRow(heed, crashed);
    expect(recovered).toMatchObject({
      title: 'Crashed topic',
      titleSource: 'first_message',
      titleState: 'pending',
      titleLeaseUntil: null,
      titleAttempts: 0,
      updatedAt: before.updatedAt,
    });
    expect(recovered.titleRequestedAt).not.toBeNull();
    expect(await titleRow(heed, live)).toMatchObject({ titleState: 'generating', titleRequestedAt: null });
    expect(titleRequests(heed)).toHaveLength(0);

    // the renewed request is answered by the next pass
    expect(await heed.titlePass()).toMatchObject({ claimed: 1, outcomes: { changed: 1 } });
    expect(await titleRow(heed, crashed)).toMatchObject({ title: 'Crashed topic title', titleState: 'generated' });
  },
);

test('a pass stopped mid-call hands its claim back without counting an attempt', async () => {
  heed.model.setResponder(titleAwareResponder(() => ({ hang: true })));
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  await sendAndAwaitReply(heed, visitor, conversationId, 'Interrupted topic');
  const stop = new AbortController();
  const pass = heed.titlePass({}, { signal: stop.signal });
  await heed.until('the title call in flight', () => titleRequests(heed).length === 1);
  stop.abort();
  expect(await pass).toMatchObject({ claimed: 1, outcomes: { skipped: 1 } });
  const row = await titleRow(heed, conversationId);
  expect(row).toMatchObject({ titleState: 'pending', titleLeaseUntil: null, titleAttempts: 0 });
  expect(row.titleRequestedAt).not.toBeNull();
  expect((await titleChecks(heed, conversationId)).map((c) => [c.outcome, c.errorCode])).toEqual([['skipped', 'interrupted']]);
});
