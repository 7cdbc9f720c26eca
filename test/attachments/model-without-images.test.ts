import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { IMAGE_NOT_SHOWN } from '../../api/src/chat/model/without-images.ts';
import { TestHeed } from '../support/harness.ts';
import { startDialectServer, type DialectServer } from '../support/dialects/dialect-server.ts';
import { personalities } from '../support/dialects/personalities.ts';
import { screenshotPng } from '../support/image-fixtures.ts';

/**
 * A model server without image input: the visitor's screenshot is refused by name, the reply is
 * asked again with a note in the image's place (never a false claim that the model saw it), and
 * later images go as notes at once.
 */
let dialect: DialectServer;
let heed: TestHeed;
beforeAll(async () => {
  dialect = await startDialectServer();
  heed = await TestHeed.start({ env: { OPENAI_BASE_URL: dialect.url } });
});
afterAll(async () => {
  await heed?.stop();
  await dialect?.close();
});

async function sendScreenshot(text: string) {
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  const res = await fetch(`${heed.url}/files?conversationId=${conversationId}&name=error.png`, {
    method: 'POST',
    headers: { authorization: `Bearer ${visitor.token}`, 'content-type': 'application/octet-stream' },
    body: new Uint8Array(await screenshotPng(40, 20)),
  });
  const { attachment } = (await res.json()) as { attachment: { id: string } };
  const events = visitor.subscribe();
  await visitor.api.message.send.mutate({ conversationId, clientMessageId: randomUUID(), content: text, attachmentIds: [attachment.id] });
  await events.waitFor((e) => e.type === 'reply.completed' || e.type === 'reply.failed', 30_000);
  events.close();
  return heed.services.db.message.findFirstOrThrow({
    where: { conversationId, role: 'assistant' },
    select: { content: true, error: true },
  });
}

test('llama.cpp without a vision projector: the image becomes a note, the reply comes, and the finding is kept', async () => {
  dialect.use(personalities.noImageInput);
  expect(await sendScreenshot('what is this error?')).toEqual({ content: 'I cannot see images here: could you describe it?', error: null });
  const [refused, accepted] = dialect.requests.map((r) => (r.body.messages as { content: unknown }[]).at(-1)!.content);
  expect(JSON.stringify(refused)).toContain('"image_url"');
  expect(accepted).toBe(`what is this error?\n\n[Attached image: error.png]\n\n${IMAGE_NOT_SHOWN}`);
  expect(heed.logs.filter((l) => l.includes('model server refused image content parts'))).toHaveLength(1);

  dialect.use(personalities.noImageInput);
  await sendScreenshot('and this one?');
  expect(dialect.requests).toHaveLength(1);
  expect(dialect.requests[0]!.body.messages).not.toContainEqual(expect.objectContaining({ content: expect.any(Array) }));
});
