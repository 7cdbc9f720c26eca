import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createApiKey } from '../../api/src/proactive/api-keys.ts';
import { TestHeed } from '../support/harness.ts';
import { findMarker, markerPlacesOf } from '../support/marker-search.ts';
import { startTestS3, type TestS3 } from '../support/s3-server.ts';

/**
 * A deployment that keeps files in an S3-compatible bucket (a real S3 API server in this
 * process): erasing a visitor deletes their files' objects from the bucket, and a conversation
 * deleted from the widget takes its object too.
 */
let s3: TestS3;
let heed: TestHeed;
let apiKey: string;
beforeAll(async () => {
  s3 = await startTestS3();
  heed = await TestHeed.start({ workers: 1, env: { S3_URL: s3.url } });
  const site = await heed.services.db.site.findUniqueOrThrow({ where: { key: heed.siteKey }, select: { id: true } });
  apiKey = (await createApiKey(heed.services.db, site.id, 'bucket tests'))!.key;
});
afterAll(async () => {
  await heed?.stop();
  await s3?.close();
});

/** Uploads a text file holding `marker` into the conversation, as the widget does. */
async function upload(token: string, conversationId: string, marker: string): Promise<void> {
  const res = await fetch(`${heed.url}/files?conversationId=${conversationId}&name=notes.txt`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, origin: 'https://shop.example', 'content-type': 'application/octet-stream' },
    body: new TextEncoder().encode(`notes ${marker}\n`),
  });
  expect(res.status).toBe(201);
}

test("an erased visitor's files leave the bucket; a deleted conversation's too; another visitor's stay", async () => {
  expect(heed.services.files.mode).toBe('s3');
  const [erased, deleted, kept] = ['er', 'de', 'ke'].map((p) => `${p}${randomUUID().replaceAll('-', '')}`) as [string, string, string];
  const ana = await heed.visitor();
  await upload(ana.token, await ana.conversation(), erased);
  const bob = await heed.visitor();
  const bobs = await bob.conversation();
  await upload(bob.token, bobs, deleted);
  await upload(bob.token, await bob.conversation(), kept);
  const places = markerPlacesOf(heed);
  for (const marker of [erased, deleted, kept])
    expect(await findMarker(places, marker)).toEqual(expect.arrayContaining([expect.stringMatching(/^s3 object /)]));

  const res = await fetch(`${heed.url}/api/v1/sites/${heed.siteKey}/visitors/${ana.visitorId}`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${apiKey}` },
  });
  expect(await res.json()).toMatchObject({ counts: { visitors: 1, attachments: 1, files: 1 } });
  await bob.api.conversation.delete.mutate({ conversationId: bobs });

  expect(await findMarker(places, erased)).toEqual([]);
  expect(await findMarker(places, deleted)).toEqual([]);
  expect(await findMarker(places, kept)).toEqual(expect.arrayContaining([expect.stringMatching(/^s3 object /)]));
});
