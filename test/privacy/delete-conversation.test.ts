import { afterAll, beforeAll, expect, test } from 'vitest';
import { signedInOperator } from '../support/console.ts';
import { TestHeed, waitUntil } from '../support/harness.ts';
import { findMarker, markerPlacesOf } from '../support/marker-search.ts';
import { randomUUID } from 'node:crypto';

/**
 * A visitor deletes one of their conversations from the widget: it is gone with its messages,
 * runs, events and file at once; the visitor's other tab hears `conversation.deleted`; the
 * console's live list is told to drop it; nobody else can delete it, and a second delete finds nothing.
 */
let heed: TestHeed;
beforeAll(async () => {
  heed = await TestHeed.start({ workers: 1 });
});
afterAll(() => heed?.stop());

test('the conversation and everything in it go at once; the other tab and the console live list drop it', async () => {
  const marker = `dc${randomUUID().replaceAll('-', '')}`;
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  const kept = await visitor.conversation();
  heed.model.script({ text: `About ${marker}.` });
  await visitor.send(conversationId, `Delete me ${marker}`);
  await heed.until('the reply', async () => (await heed.services.db.run.count({ where: { conversationId, status: 'completed' } })) > 0);
  const upload = await fetch(`${heed.url}/files?conversationId=${conversationId}&name=note.txt`, {
    method: 'POST',
    headers: { authorization: `Bearer ${visitor.token}`, origin: 'https://shop.example', 'content-type': 'application/octet-stream' },
    body: new TextEncoder().encode(`file ${marker}`),
  });
  expect(upload.status).toBe(201);

  const owner = await signedInOperator(heed.services, heed.url);
  const changes: { type: string; conversationId?: string; item?: { id: string } }[] = [];
  const live = owner.api.console.conversations.changes.subscribe(undefined, {
    onData: (raw) => changes.push((raw as { data: (typeof changes)[number] }).data),
  });
  // another tab, from the log's position now: it hears of the delete whenever its stream opens
  const otherTab = visitor.subscribe((await visitor.api.conversation.list.query()).cursor);
  // the console stream is listening once a change made now reaches it
  await heed.until('the console stream', async () => {
    await visitor.api.conversation.rename.mutate({ conversationId: kept, title: `Kept ${changes.length}` });
    return changes.some((c) => c.item?.id === kept);
  });

  const stranger = await heed.visitor();
  await expect(stranger.api.conversation.delete.mutate({ conversationId })).rejects.toMatchObject({ data: { code: 'NOT_FOUND' } });
  expect(await visitor.api.conversation.delete.mutate({ conversationId })).toEqual({ deleted: true });

  await otherTab.waitFor((e) => e.type === 'conversation.deleted' && e.conversationId === conversationId);
  await waitUntil('the console to drop it', () => changes.some((c) => c.type === 'removed' && c.conversationId === conversationId));
  expect(await findMarker(markerPlacesOf(heed), marker)).toEqual([]);
  const left = await visitor.api.conversation.list.query();
  expect(left.conversations.map((c) => c.id)).toEqual([kept]);
  await expect(visitor.api.conversation.delete.mutate({ conversationId })).rejects.toMatchObject({ data: { code: 'NOT_FOUND' } });
  await expect(visitor.api.conversation.get.query({ conversationId })).rejects.toMatchObject({ data: { code: 'NOT_FOUND' } });
  live.unsubscribe();
  otherTab.close();
});

test('a reply still being written when its conversation is deleted leaves nothing behind, and the worker answers the next one', async () => {
  const marker = `mid${randomUUID().replaceAll('-', '')}`;
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  heed.model.script({ chunks: [`Part one ${marker} `, `part two ${marker}.`], until: held });
  await visitor.send(conversationId, `Question ${marker}`);
  const run = await heed.until('the run to start', () =>
    heed.services.db.run.findFirst({ where: { conversationId }, select: { id: true } }),
  );

  await visitor.api.conversation.delete.mutate({ conversationId });
  release();
  // the worker finds its run gone and stops writing, before anything of the held reply is kept anywhere
  await heed.until('the deleted run to end', () => heed.logs.some((line) => line.includes(run.id) && line.includes('"run finished"')));
  const next = await visitor.conversation();
  heed.model.script({ text: 'The next answer.' });
  await visitor.send(next, 'Another question');
  await heed.until(
    'the next reply',
    async () => (await heed.services.db.run.count({ where: { conversationId: next, status: 'completed' } })) > 0,
  );
  expect(await findMarker(markerPlacesOf(heed), marker)).toEqual([]);
});
