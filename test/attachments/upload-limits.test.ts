import { afterAll, beforeAll, expect, test } from 'vitest';
import { TestHeed, type TestVisitor } from '../support/harness.ts';
import { screenshotPng } from '../support/image-fixtures.ts';
import { UNLIMITED_RATE_LIMITS } from '../support/unlimited-limits.ts';

let heed: TestHeed;
beforeAll(async () => {
  const limits = { ...JSON.parse(UNLIMITED_RATE_LIMITS), uploads: { points: 2, seconds: 600 } };
  heed = await TestHeed.start({ workers: 0, env: { RATE_LIMITS: JSON.stringify(limits) } });
});
afterAll(async () => {
  await heed?.stop();
});

const upload = async (visitor: TestVisitor, conversationId: string) =>
  fetch(`${heed.url}/files?conversationId=${conversationId}&name=a.png`, {
    method: 'POST',
    headers: { authorization: `Bearer ${visitor.token}`, 'content-type': 'application/octet-stream', origin: 'https://shop.example' },
    body: new Uint8Array(await screenshotPng(8, 8)),
  });

test('uploads count against the visitor’s limits: over them, 429 with when to try again, and nothing is kept', async () => {
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  expect((await upload(visitor, conversationId)).status).toBe(201);
  expect((await upload(visitor, conversationId)).status).toBe(201);
  const refused = await upload(visitor, conversationId);
  expect(refused.status).toBe(429);
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(await refused.json()).toMatchObject({ error: { code: 'rate_limited', retryAfterMs: expect.any(Number) } });
  expect(refused.headers.get('access-control-expose-headers')).toBe('retry-after');
  expect(await heed.services.db.attachment.count({ where: { conversationId } })).toBe(2);
  // another visitor has their own budget
  const other = await heed.visitor();
  expect((await upload(other, await other.conversation())).status).toBe(201);
});
