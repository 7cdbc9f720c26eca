import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createHttpServer } from '../../api/src/http/server.ts';
import { TestHeed } from '../support/harness.ts';
import { sendAndAwaitReply, titleAnswer, titleAwareResponder, titleRequests, titleRow } from '../support/titles.ts';

const SECRET = 'cron-secret-for-the-title-tests';

let heed: TestHeed;
beforeAll(async () => {
  heed = await TestHeed.start({ env: { CRON_SECRET: SECRET } });
});
afterAll(() => heed?.stop());

const cron = (base: string, init: { method?: string; authorization?: string } = {}) =>
  fetch(`${base}/api/cron/titles`, {
    method: init.method ?? 'POST',
    headers: init.authorization ? { authorization: init.authorization } : {},
  });

test('the cron route answers 401 without the secret or with a wrong one, and runs a pass with the right one', async () => {
  heed.model.setResponder(titleAwareResponder(() => titleAnswer('Cron made this title')));
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  await sendAndAwaitReply(heed, visitor, conversationId, 'cron topic');

  for (const authorization of [undefined, `Bearer ${SECRET}x`, `Bearer ${SECRET.slice(0, -1)}`, 'Bearer ', SECRET, `Basic ${SECRET}`]) {
    const res = await cron(heed.url, { authorization });
    expect(res.status, String(authorization)).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
    expect(await res.json()).toEqual({ error: 'unauthorized' });
  }
  expect(titleRequests(heed)).toHaveLength(0);
  expect(await titleRow(heed, conversationId)).toMatchObject({ title: 'cron topic', titleState: 'pending' });

  expect((await cron(heed.url, { method: 'GET', authorization: `Bearer ${SECRET}` })).status).toBe(405);

  const res = await cron(heed.url, { authorization: `Bearer ${SECRET}` });
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ recovered: 0, claimed: 1, outcomes: { changed: 1, kept: 0, failed: 0, rejected: 0, skipped: 0 } });
  expect(await titleRow(heed, conversationId)).toMatchObject({ title: 'Cron made this title', titleSource: 'generated' });
});

test('without CRON_SECRET configured the cron route refuses everyone', async () => {
  const open = await createHttpServer({ ...heed.services, config: { ...heed.config, CRON_SECRET: undefined } });
  await new Promise<void>((resolve) => open.listen(0, '127.0.0.1', resolve));
  try {
    const base = `http://127.0.0.1:${(open.address() as AddressInfo).port}`;
    for (const authorization of [undefined, 'Bearer ', 'Bearer undefined', `Bearer ${SECRET}`]) {
      expect((await cron(base, { authorization })).status, String(authorization)).toBe(401);
    }
  } finally {
    open.closeAllConnections();
    await new Promise((resolve) => open.close(resolve));
  }
});
