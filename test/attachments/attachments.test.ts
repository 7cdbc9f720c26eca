import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { makeClient, TestHeed, type TestVisitor } from '../support/harness.ts';
import { signedInOperator, type TestOperator } from '../support/console.ts';
import { PRIVATE_MARKERS, pngWithMetadata, screenshotPng } from '../support/image-fixtures.ts';
import { textPdf } from '../support/text-pdf.ts';
import { isEmbeddedTestRun } from '../support/stores.ts';

let heed: TestHeed;
beforeAll(async () => {
  heed = await TestHeed.start({ workers: 1 });
});
afterAll(async () => {
  await heed?.stop();
});

/** What `POST /files` answered: its status and JSON body. */
interface Upload {
  status: number;
  body: {
    attachment?: { id: string; url: string; name: string; mime: string; kind: string; bytes: number; width: number | null };
    error?: { code: string; message: string; limitBytes?: number; detected?: string };
  };
  headers: Headers;
}

/** Uploads as the widget does: the visitor's bearer token, from the host page's origin. */
async function upload(as: TestVisitor | TestOperator, conversationId: string, name: string, bytes: Uint8Array): Promise<Upload> {
  const auth: Record<string, string> =
    'token' in as ? { authorization: `Bearer ${as.token}`, origin: 'https://shop.example' } : { cookie: as.cookie, origin: heed.url };
  const res = await fetch(`${heed.url}/files?conversationId=${conversationId}&name=${encodeURIComponent(name)}`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/octet-stream' },
    body: new Uint8Array(bytes),
  });
  return { status: res.status, body: await res.json(), headers: res.headers };
}

const fileAt = (url: string) => fetch(new URL(url, `${heed.url}/`));

describe('a visitor attaches a screenshot', () => {
  test('it is stored without its metadata, served only at its own address, and reaches the model as an image beside the words', async () => {
    const visitor = await heed.visitor();
    const conversationId = await visitor.conversation();
    const png = await pngWithMetadata(64, 32);
    const up = await upload(visitor, conversationId, 'C:\\Users\\ana\\Desktop\\error.png', png);
    expect(up.status).toBe(201);
    const attachment = up.body.attachment!;
    expect(attachment).toMatchObject({ name: 'error.png', mime: 'image/png', kind: 'image', width: 64, height: 32 });

    // served as an image, with nothing able to run, and no metadata left in the bytes
    const served = await fileAt(attachment.url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(served.headers.get('content-security-policy')).toContain('sandbox');
    expect(served.headers.get('content-disposition')).toMatch(/^inline; filename="error.png"/);
    const bytes = Buffer.from(await served.arrayBuffer());
    for (const marker of PRIVATE_MARKERS) expect(bytes.includes(Buffer.from(marker, 'latin1'))).toBe(false);
    expect((await sharp(bytes).metadata()).exif).toBeUndefined();
    // kept where this mode keeps files: the data folder in the embedded mode, else PostgreSQL (no S3 configured)
    expect(heed.services.files.mode).toBe(isEmbeddedTestRun() ? 'folder' : 'postgres');
    const { storeKey } = await heed.services.db.attachment.findUniqueOrThrow({ where: { id: attachment.id }, select: { storeKey: true } });
    expect(await heed.services.files.get(storeKey)).toEqual(bytes);

    // the address is the capability: a wrong key, or none, is a missing file
    const id = attachment.id;
    expect((await fetch(`${heed.url}/files/${id}?k=${'A'.repeat(22)}`)).status).toBe(404);
    expect((await fetch(`${heed.url}/files/${id}`)).status).toBe(404);

    const events = visitor.subscribe();
    const sent = await visitor.api.message.send.mutate({
      conversationId,
      clientMessageId: randomUUID(),
      content: 'What does this error mean?',
      attachmentIds: [id],
    });
    expect(sent.attachments).toEqual([attachment]);
    await events.waitFor((e) => e.type === 'reply.completed');
    events.close();
    const last = heed.model.requests
      .map((r) => (r.body.messages as { role: string; content: unknown }[]).at(-1)!)
      .find((m) => Array.isArray(m.content) && JSON.stringify(m.content).includes('What does this error mean?'))!;
    expect(last.role).toBe('user');
    expect(last.content).toEqual([
      { type: 'text', text: 'What does this error mean?\n\n[Attached image: error.png]' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${bytes.toString('base64')}` } },
    ]);
    // the thread, read again, shows the file with the message (a refresh keeps it)
    const thread = await visitor.api.conversation.get.query({ conversationId });
    expect(thread.messages.find((m) => m.id === sent.id)?.attachments).toEqual([attachment]);
  });

  test('a message of files alone is sent, and gives the conversation no title of its words', async () => {
    const visitor = await heed.visitor();
    const conversationId = await visitor.conversation();
    const up = await upload(visitor, conversationId, 'shot.png', await screenshotPng(40, 30));
    const sent = await visitor.api.message.send.mutate({
      conversationId,
      clientMessageId: randomUUID(),
      content: '',
      attachmentIds: [up.body.attachment!.id],
    });
    expect(sent.content).toBe('');
    expect(sent.attachments).toHaveLength(1);
    const row = await heed.services.db.conversation.findUniqueOrThrow({
      where: { id: conversationId },
      select: { title: true, attachmentCount: true },
    });
    expect(row).toEqual({ title: null, attachmentCount: 1 });
    await expect(visitor.api.message.send.mutate({ conversationId, clientMessageId: randomUUID(), content: ' ' })).rejects.toThrow(
      /must not be empty/,
    );
  });

  test('a PDF reaches the model as its words, quoted, and downloads under its name', async () => {
    const visitor = await heed.visitor();
    const conversationId = await visitor.conversation();
    const up = await upload(visitor, conversationId, 'invoice.pdf', textPdf([['Invoice 1042', 'Total 99 EUR']]));
    expect(up.body.attachment).toMatchObject({ name: 'invoice.pdf', mime: 'application/pdf', kind: 'file' });
    const served = await fileAt(up.body.attachment!.url);
    expect(served.headers.get('content-disposition')).toMatch(/^attachment; filename="invoice.pdf"/);
    await visitor.api.message.send.mutate({
      conversationId,
      clientMessageId: randomUUID(),
      content: 'is this right?',
      attachmentIds: [up.body.attachment!.id],
    });
    const last = await heed.until('the model to be asked', () =>
      heed.model.requests
        .map((r) => (r.body.messages as { content: unknown }[]).at(-1)!.content)
        .find((c): c is string => typeof c === 'string' && c.startsWith('is this right?')),
    );
    expect(last).toMatch(/^is this right\?\n\n\[Attached PDF: invoice\.pdf\. Its text, quoted:\]\n> Invoice 1042/);
    expect(last).toContain('Total 99 EUR');
  });
});

describe('what is refused, and what is kept', () => {
  test('an SVG, an HTML page and a file over the site’s limit are refused with why; the conversation loses nothing', async () => {
    const visitor = await heed.visitor();
    const conversationId = await visitor.conversation();
    await visitor.send(conversationId, 'my words stay');
    const svg = await upload(
      visitor,
      conversationId,
      'logo.png',
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'),
    );
    expect(svg.status).toBe(415);
    expect(svg.body.error).toMatchObject({ code: 'file_type_refused', detected: 'SVG' });
    expect(svg.headers.get('access-control-allow-origin')).toBe('https://shop.example');
    // the browser asks before an upload with a token: the answer lets it through
    const preflight = await fetch(`${heed.url}/files?conversationId=${conversationId}&name=a.png`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://shop.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://shop.example');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('authorization');
    const page = await upload(visitor, conversationId, 'a.txt', Buffer.from('<!doctype html><script>alert(1)</script>'));
    expect(page.body.error).toMatchObject({ code: 'file_type_refused', detected: 'HTML' });
    await heed.services.db.site.update({ where: { key: heed.siteKey }, data: { attachmentMaxBytes: 2048 } });
    heed.services.sites.clear();
    try {
      const big = await upload(visitor, conversationId, 'big.png', await screenshotPng(400, 400));
      expect(big.status).toBe(413);
      expect(big.body.error).toMatchObject({ code: 'file_too_large', limitBytes: 2048 });
    } finally {
      await heed.services.db.site.update({ where: { key: heed.siteKey }, data: { attachmentMaxBytes: 10 * 1024 * 1024 } });
      heed.services.sites.clear();
    }
    expect(await heed.services.db.attachment.count({ where: { conversationId } })).toBe(0);
    const thread = await visitor.api.conversation.get.query({ conversationId });
    expect(thread.messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['my words stay']);
  });

  test('a kind the site does not take is refused, and a site without attachments takes none', async () => {
    const visitor = await heed.visitor();
    const conversationId = await visitor.conversation();
    await heed.services.db.site.update({ where: { key: heed.siteKey }, data: { attachmentKinds: ['png'] } });
    heed.services.sites.clear();
    try {
      const pdf = await upload(visitor, conversationId, 'a.pdf', textPdf([['x']]));
      expect(pdf.body.error).toMatchObject({ code: 'file_type_refused', detected: 'PDF' });
      await heed.services.db.site.update({ where: { key: heed.siteKey }, data: { attachmentKinds: [] } });
      heed.services.sites.clear();
      const off = await upload(visitor, conversationId, 'a.png', await screenshotPng(10, 10));
      expect(off).toMatchObject({ status: 403, body: { error: { code: 'attachments_off' } } });
      const session = await makeClient(heed.url, null).session.start.mutate({ siteKey: heed.siteKey });
      expect(session.site.attachments).toMatchObject({ kinds: [] });
    } finally {
      await heed.services.db.site.update({
        where: { key: heed.siteKey },
        data: { attachmentKinds: ['png', 'jpeg', 'webp', 'gif', 'pdf', 'text'] },
      });
      heed.services.sites.clear();
    }
  });
});

describe('another visitor', () => {
  test('cannot upload into a conversation, send a file or read one that is not theirs', async () => {
    const owner = await heed.visitor();
    const stranger = await heed.visitor();
    const conversationId = await owner.conversation();
    const strangersOwn = await stranger.conversation();
    const up = await upload(owner, conversationId, 'private.png', await screenshotPng(20, 20));
    const id = up.body.attachment!.id;
    expect((await upload(stranger, conversationId, 'x.png', await screenshotPng(5, 5))).status).toBe(404);
    await expect(
      stranger.api.message.send.mutate({
        conversationId: strangersOwn,
        clientMessageId: randomUUID(),
        content: 'mine now',
        attachmentIds: [id],
      }),
    ).rejects.toThrow(/not available/);
    // the refused send stored nothing: the stranger's conversation is as it was
    expect((await stranger.api.conversation.get.query({ conversationId: strangersOwn })).messages).toEqual([]);
    // a forged token is refused like everywhere else
    const forged = await fetch(`${heed.url}/files?conversationId=${conversationId}&name=a.png`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner.token.slice(0, -4)}AAAA`, 'content-type': 'application/octet-stream' },
      body: new Uint8Array(await screenshotPng(5, 5)),
    });
    expect(forged.status).toBe(401);
    // the owner sends it; a send of the same file again is refused (it is sent already)
    await owner.api.message.send.mutate({ conversationId, clientMessageId: randomUUID(), content: 'here', attachmentIds: [id] });
    await expect(
      owner.api.message.send.mutate({ conversationId, clientMessageId: randomUUID(), content: 'again', attachmentIds: [id] }),
    ).rejects.toThrow(/not available/);
  });
});

describe('operators', () => {
  test('see the visitor’s files in the transcript, reply with a file the visitor can open, and see only metadata of a private conversation', async () => {
    const visitor = await heed.visitor();
    const conversationId = await visitor.conversation();
    const shot = await upload(visitor, conversationId, 'broken.png', await screenshotPng(30, 20));
    await visitor.api.message.send.mutate({
      conversationId,
      clientMessageId: randomUUID(),
      content: 'look',
      attachmentIds: [shot.body.attachment!.id],
    });
    const ana = await signedInOperator(heed.services, heed.url, { name: 'Ana' });
    const transcript = await ana.api.console.conversations.transcript.query({ conversationId });
    const seen = transcript.messages.find((m) => m.content === 'look')!.attachments;
    expect(seen).toEqual([shot.body.attachment]);
    expect((await fileAt(seen[0]!.url!)).status).toBe(200);
    const item = (await ana.api.console.conversations.list.query({ search: conversationId })).items[0];
    expect(item?.attachmentCount).toBe(1);

    await ana.api.console.conversations.takeOver.mutate({ conversationId });
    const guide = await upload(ana, conversationId, 'guide.pdf', textPdf([['Step 1']]));
    expect(guide.status).toBe(201);
    // an upload from another origin with the console's cookie is refused
    const csrf = await fetch(`${heed.url}/files?conversationId=${conversationId}&name=x.txt`, {
      method: 'POST',
      headers: { cookie: ana.cookie, origin: 'https://evil.example', 'content-type': 'application/octet-stream' },
      body: Buffer.from('hello'),
    });
    expect(csrf.status).toBe(403);
    const reply = await ana.api.console.conversations.reply.mutate({
      conversationId,
      text: '',
      clientMessageId: randomUUID(),
      attachmentIds: [guide.body.attachment!.id],
    });
    expect(reply.attachments).toEqual([guide.body.attachment]);
    // the visitor's thread holds it, with an address of their own to open it at
    const thread = await visitor.api.conversation.get.query({ conversationId });
    const sentToVisitor = thread.messages.find((m) => m.role === 'operator')!.attachments;
    expect(sentToVisitor.map((a) => a.name)).toEqual(['guide.pdf']);
    const download = await fileAt(sentToVisitor[0]!.url!);
    expect(download.status).toBe(200);
    expect(
      Buffer.from(await download.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');

    // another site's agent cannot upload into it
    const other = await heed.services.db.site.create({
      data: { key: `other-${randomUUID().slice(0, 6)}`, name: 'Other' },
      select: { id: true },
    });
    const bo = await signedInOperator(heed.services, heed.url, { role: 'agent', sites: [other.id] });
    expect((await upload(bo, conversationId, 'x.txt', Buffer.from('hi'))).status).toBe(404);

    await visitor.api.conversation.setPrivate.mutate({ conversationId, private: true });
    const hidden = await ana.api.console.conversations.transcript.query({ conversationId });
    const files = hidden.messages.flatMap((m) => m.attachments);
    expect(files).toHaveLength(2);
    for (const f of files) expect(f).toMatchObject({ name: '', url: null });
    expect(files.map((f) => f.mime).sort()).toEqual(['application/pdf', 'image/png']);
  });
});
