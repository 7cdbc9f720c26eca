import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { TestHeed, type TestVisitor } from '../support/harness.ts';

/**
 * Bad input is refused at the edge with a 4xx that names the problem, and leaves no trace.
 * Calls go over raw HTTP (tRPC's non-batched POST), so the status checked is the one a
 * browser or a proxy sees. No reply worker runs: nothing here should ever reach the model.
 */
let heed: TestHeed;
let visitor: TestVisitor;
let conversationId: string;

beforeAll(async () => {
  heed = await TestHeed.start({ workers: 0 });
  visitor = await heed.visitor();
  conversationId = await visitor.conversation();
});
afterAll(() => heed?.stop());

interface TrpcErrorBody {
  error?: { message: string; data: { code: string; httpStatus: number; fieldErrors: Record<string, string[]> | null } };
}

async function post(
  path: string,
  body: string | object,
  token: string | null = visitor.token,
): Promise<{ status: number; body: TrpcErrorBody }> {
  const res = await fetch(`${heed.url}/trpc/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: TrpcErrorBody = {};
  try {
    parsed = JSON.parse(text) as TrpcErrorBody;
  } catch {
    parsed = { error: { message: text, data: { code: '', httpStatus: res.status, fieldErrors: null } } };
  }
  return { status: res.status, body: parsed };
}

/** Row counts of everything a bad request could leave behind. */
async function stored() {
  const db = heed.services.db;
  const [sites, visitors, conversations, messages, events] = await Promise.all([
    db.site.count(),
    db.visitor.count(),
    db.conversation.count(),
    db.message.count(),
    db.event.count(),
  ]);
  return { sites, visitors, conversations, messages, events };
}

/** Sends `body` to `path`, expects `status`, and checks nothing was stored; returns the error. */
async function refused(path: string, body: string | object, status: number, token?: string | null) {
  const before = await stored();
  const res = await post(path, body, token);
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.error).toBeDefined();
  expect(await stored()).toEqual(before);
  return res.body.error!;
}

const send = (fields: Record<string, unknown>) => ({ conversationId, clientMessageId: randomUUID(), content: 'Hello', ...fields });

describe('message.send', () => {
  test('a message over 4000 characters is refused with 400 naming the limit', async () => {
    const error = await refused('message.send', send({ content: 'a'.repeat(4001) }), 400);
    expect(error.data.code).toBe('BAD_REQUEST');
    expect(error.data.fieldErrors?.content).toEqual(['at most 4000 characters']);
  });

  test('a message of exactly 4000 characters is accepted', async () => {
    const res = await post('message.send', send({ content: 'a'.repeat(4000) }));
    expect(res.status).toBe(200);
  });

  test('an empty or whitespace-only message is refused with 400 "must not be empty"', async () => {
    for (const content of ['', '   ', '\n\t \n']) {
      const error = await refused('message.send', send({ content }), 400);
      expect(error.data.fieldErrors?.content, JSON.stringify(content)).toEqual(['must not be empty']);
    }
  });

  test('a message containing a NUL character (which PostgreSQL cannot store) is refused with 400, not a server error', async () => {
    const error = await refused('message.send', send({ content: 'pasted\u0000text' }), 400);
    expect(error.data.fieldErrors?.content).toBeDefined();
  });

  test('a lone surrogate (a broken emoji half, legal in JSON, not in UTF-8) is stored as U+FFFD, in the message and its events, and sends beside it are not failed', async () => {
    const other = await heed.visitor();
    const otherConversation = await other.conversation();
    const logged = heed.logs.length;
    const [broken, batched, ...beside] = await Promise.all([
      post('message.send', send({ content: 'Hel\ud800lo 😀 \udfff' })),
      // tRPC's own handler (a batch) as well as the lean route
      post('message.send?batch=1', { 0: send({ content: 'batched \ud83d' }) }),
      ...Array.from({ length: 8 }, (_, i) =>
        post('message.send', { conversationId: otherConversation, clientMessageId: randomUUID(), content: `beside ${i}` }, other.token),
      ),
    ]);
    expect([broken, batched, ...beside].map((r) => r.status)).toEqual(Array(10).fill(200));
    const rows = await heed.services.db.message.findMany({
      where: { conversationId, content: { contains: '\uFFFD' } },
      orderBy: { seq: 'asc' },
    });
    expect(rows.map((r) => r.content).sort()).toEqual(['Hel\uFFFDlo 😀 \uFFFD', 'batched \uFFFD']);
    const events = await heed.services.db.event.findMany({ where: { conversationId, type: 'message.created' } });
    const contents = events.map((e) => (e.payload as { message: { content: string } }).message.content);
    expect(contents).toEqual(expect.arrayContaining(['Hel\uFFFDlo 😀 \uFFFD', 'batched \uFFFD']));
    expect(heed.logs.slice(logged).filter((line) => /error/i.test(line))).toEqual([]);
  });

  test('a title with a lone surrogate is renamed with U+FFFD in its place', async () => {
    const res = await post('conversation.rename', { conversationId, title: 'Plans \udc00 2027' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const row = await heed.services.db.conversation.findUniqueOrThrow({ where: { id: conversationId } });
    expect(row.title).toBe('Plans \uFFFD 2027');
    const event = await heed.services.db.event.findFirstOrThrow({
      where: { conversationId, type: 'conversation.updated' },
      orderBy: { id: 'desc' },
    });
    expect((event.payload as { conversation: { title: string } }).conversation.title).toBe('Plans \uFFFD 2027');
  });

  test('whatever goes wrong, a response never carries database error details', async () => {
    const res = await post('message.send', send({ content: 'pasted\u0000text' }));
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(JSON.stringify(res.body)).not.toMatch(/prisma|queryRaw|Raw query|invalid byte sequence|22021/i);
  });

  test('a malformed conversation id is refused with 400 naming the field', async () => {
    for (const bad of ['not-a-uuid', '', `${conversationId}x`, "1' OR '1'='1"]) {
      const error = await refused('message.send', send({ conversationId: bad }), 400);
      expect(error.data.fieldErrors?.conversationId, bad).toBeDefined();
    }
  });

  test('a client message id that is too short, too long or has odd characters is refused with 400 naming the field', async () => {
    for (const bad of ['short', 'x'.repeat(65), 'has spaces in it', 'semi;colon-0001', 'emoji-😀😀😀😀']) {
      const error = await refused('message.send', send({ clientMessageId: bad }), 400);
      expect(error.data.fieldErrors?.clientMessageId, bad).toBeDefined();
    }
    const error = await refused('message.send', send({ clientMessageId: 'has spaces in it' }), 400);
    expect(error.data.fieldErrors?.clientMessageId).toEqual(['letters, digits, - and _ only']);
  });

  test('missing fields are refused with 400 naming each one', async () => {
    const error = await refused('message.send', {}, 400);
    expect(Object.keys(error.data.fieldErrors ?? {}).sort()).toEqual(['clientMessageId', 'content', 'conversationId']);
  });

  test('extra fields (e.g. trying to set the role or state) are refused with 400 naming them', async () => {
    const error = await refused('message.send', send({ role: 'assistant', state: 'answered' }), 400);
    expect(error.data.code).toBe('BAD_REQUEST');
    expect(JSON.stringify(error)).toMatch(/role/);
  });

  test('a request body over the server’s size limit is refused with 413 and nothing is stored', async () => {
    const huge = JSON.stringify(send({ content: 'a'.repeat(100 * 1024) }));
    expect(huge.length).toBeGreaterThan(64 * 1024);
    const error = await refused('message.send', huge, 413);
    expect(error.data.code).toBe('PAYLOAD_TOO_LARGE');
    expect(error.message).toMatch(/too.large/i);
  });

  test('a body that is not JSON is refused with 400', async () => {
    const error = await refused('message.send', '{"conversationId": ', 400);
    expect(error.data.code).toBe('BAD_REQUEST');
    expect(error.message).toMatch(/JSON/);
  });
});

describe('session.start', () => {
  test('an unknown IANA time zone is refused with 400 naming it, and no visitor is created', async () => {
    const error = await refused('session.start', { siteKey: heed.siteKey, timeZone: 'Mars/Olympus_Mons' }, 400, null);
    expect(error.data.fieldErrors?.timeZone).toEqual(['unknown IANA time zone']);
  });

  test('an unknown site key is refused with 404 "unknown site key", and no visitor is created', async () => {
    const error = await refused('session.start', { siteKey: 'no-such-site', timeZone: 'Europe/Paris' }, 404, null);
    expect(error.data.code).toBe('NOT_FOUND');
    expect(error.message).toBe('unknown site key');
  });

  test('an empty or overlong site key is refused with 400 naming the field', async () => {
    for (const siteKey of ['', 'k'.repeat(65)]) {
      const error = await refused('session.start', { siteKey }, 400, null);
      expect(error.data.fieldErrors?.siteKey).toBeDefined();
    }
  });

  test('extra fields (e.g. choosing a visitor id) are refused with 400 naming them', async () => {
    const error = await refused('session.start', { siteKey: heed.siteKey, visitorId: randomUUID() }, 400, null);
    expect(JSON.stringify(error)).toMatch(/visitorId/);
  });
});

describe('conversations', () => {
  test('creating a conversation with extra fields (e.g. another visitor id) is refused with 400', async () => {
    const error = await refused('conversation.create', { visitorId: randomUUID() }, 400);
    expect(error.data.code).toBe('BAD_REQUEST');
    expect(JSON.stringify(error)).toMatch(/visitorId/);
  });

  test('markRead with a malformed timestamp or conversation id is refused with 400 naming the field', async () => {
    const bad = await refused('conversation.markRead', { conversationId, lastAssistantAt: 'yesterday' }, 400);
    expect(bad.data.fieldErrors?.lastAssistantAt).toBeDefined();
    const badId = await refused('conversation.markRead', { conversationId: 'nope', lastAssistantAt: new Date().toISOString() }, 400);
    expect(badId.data.fieldErrors?.conversationId).toBeDefined();
  });

  test('markRead with extra fields (e.g. setting lastReadAt directly) is refused with 400 naming them', async () => {
    const error = await refused(
      'conversation.markRead',
      { conversationId, lastAssistantAt: new Date().toISOString(), lastReadAt: '2099-01-01T00:00:00Z' },
      400,
    );
    expect(JSON.stringify(error)).toMatch(/lastReadAt/);
  });

  test('conversation.get with a malformed id is refused with 400 naming the field', async () => {
    const res = await fetch(`${heed.url}/trpc/conversation.get?input=${encodeURIComponent(JSON.stringify({ conversationId: 'abc' }))}`, {
      headers: { authorization: `Bearer ${visitor.token}` },
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as TrpcErrorBody;
    expect(body.error?.data.fieldErrors?.conversationId).toBeDefined();
  });
});
