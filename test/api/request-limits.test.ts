import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { TestHeed, type TestVisitor } from '../support/harness.ts';
import { MAX_BATCH_SIZE } from '../../api/src/http/server.ts';

/**
 * What one request, one conversation and one visitor may cost is bounded: a batched HTTP
 * request carries at most MAX_BATCH_SIZE calls, a conversation holds at most
 * PENDING_MAX_MESSAGES unanswered messages of PENDING_MAX_CHARS characters (they all become
 * the next prompt), and a visitor opens at most VISITOR_MAX_CONVERSATIONS conversations.
 * Over a cap the request is refused whole with a 4xx and a machine-readable reason, and
 * nothing is stored. No reply worker runs, so sent messages stay unanswered.
 */
const MAX_CONVERSATIONS = 5;
let heed: TestHeed;

beforeAll(async () => {
  heed = await TestHeed.start({ workers: 0, env: { VISITOR_MAX_CONVERSATIONS: String(MAX_CONVERSATIONS) } });
});
afterAll(() => heed?.stop());

interface TrpcError {
  message: string;
  data: { code: string; httpStatus: number; reason: string | null };
}

async function post(
  path: string,
  body: unknown,
  token: string | null,
): Promise<{ status: number; body: { result?: { data: unknown }; error?: TrpcError } }> {
  const res = await fetch(`${heed.url}/trpc/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(20_000),
  });
  return { status: res.status, body: (await res.json()) as { error?: TrpcError } };
}

async function stored() {
  const db = heed.services.db;
  const [visitors, conversations, messages, events] = await Promise.all([
    db.visitor.count(),
    db.conversation.count(),
    db.message.count(),
    db.event.count(),
  ]);
  return { visitors, conversations, messages, events };
}

const send = (v: TestVisitor, conversationId: string, content: string, clientMessageId: string = randomUUID()) =>
  post('message.send', { conversationId, clientMessageId, content }, v.token);

describe('batched requests', () => {
  const batch = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [i, { siteKey: heed.siteKey }]));
  const paths = (n: number) => Array.from({ length: n }, () => 'session.start').join(',');

  test(`a batch of more than ${MAX_BATCH_SIZE} calls is refused whole with 400 and nothing is stored`, async () => {
    for (const n of [MAX_BATCH_SIZE + 1, 1000]) {
      const before = await stored();
      const res = await post(`${paths(n)}?batch=1`, batch(n), null);
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body)).toMatch(/Batch call exceeds maximum size/);
      expect(await stored()).toEqual(before);
    }
  });

  test('an oversized batch of queries (GET) is refused the same way', async () => {
    const v = await heed.visitor();
    const list = Array.from({ length: MAX_BATCH_SIZE + 1 }, () => 'conversation.list').join(',');
    const res = await fetch(`${heed.url}/trpc/${list}?batch=1&input=${encodeURIComponent('{}')}`, {
      headers: { authorization: `Bearer ${v.token}` },
    });
    expect(res.status).toBe(400);
  });

  test(`a batch of exactly ${MAX_BATCH_SIZE} calls is served`, async () => {
    const before = await stored();
    const res = await post(`${paths(MAX_BATCH_SIZE)}?batch=1`, batch(MAX_BATCH_SIZE), null);
    expect(res.status).toBe(200);
    expect((await stored()).visitors).toBe(before.visitors + MAX_BATCH_SIZE);
  });
});

describe('requests the HTTP parser rejects', () => {
  /**
   * Writes a good request, then `bad`, on one keep-alive connection; resolves with all the
   * server answered once it closes the connection (a hang detector gives up after 10 s).
   */
  function afterAGoodRequest(bad: string): Promise<string> {
    const { port } = new URL(heed.url);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1');
      let answer = '';
      let sent = false;
      const giveUp = setTimeout(() => {
        socket.destroy();
        reject(new Error(`the server kept the connection open; it answered: ${answer.slice(0, 500)}`));
      }, 10_000);
      socket.on('data', (d) => {
        answer += d.toString('latin1');
        // the first answer is complete: send the bad request on the same connection
        if (!sent && firstAnswerComplete(answer)) {
          sent = true;
          socket.write(bad);
        }
      });
      socket.on('error', () => {}); // a reset after the answer is a close too
      socket.on('close', () => {
        clearTimeout(giveUp);
        resolve(answer);
      });
      socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    });
  }

  function firstAnswerComplete(answer: string): boolean {
    const end = answer.indexOf('\r\n\r\n');
    const length = /\r\ncontent-length: (\d+)/i.exec(answer.slice(0, end));
    return end >= 0 && length !== null && answer.length >= end + 4 + Number(length[1]);
  }

  /** The head of the second answer on the connection. */
  const secondHead = (answer: string) => answer.slice(answer.indexOf('HTTP/1.1', 1)).split('\r\n\r\n')[0]!;

  // Without `Connection: close` a keep-alive client reuses the connection the server is
  // closing, and its next request (often a POST, never retried) fails with "other side closed".
  test.each([
    ['headers over 16 KB', 431, `GET /trpc/events.subscribe HTTP/1.1\r\nHost: 127.0.0.1\r\nLast-Event-ID: ${'x'.repeat(20_000)}\r\n\r\n`],
    ['bytes that are not HTTP', 400, 'NOT HTTP AT ALL\r\n\r\n'],
  ])(
    '%s, on a reused keep-alive connection, are answered %i with Connection: close, and the connection is closed',
    async (_, status, bad) => {
      const answer = await afterAGoodRequest(bad);
      expect(answer).toMatch(/^HTTP\/1\.1 200 /);
      const head = secondHead(answer);
      expect(head).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
      expect(head).toMatch(/\r\nconnection: close(\r\n|$)/i);
    },
  );
});

describe('a conversation’s unanswered messages', () => {
  const max = () => heed.config.PENDING_MAX_MESSAGES;

  async function expectFull(v: TestVisitor, conversationId: string, content: string) {
    const before = await stored();
    const res = await send(v, conversationId, content);
    expect(res.status, JSON.stringify(res.body)).toBe(429);
    expect(res.body.error?.data).toMatchObject({ code: 'TOO_MANY_REQUESTS', reason: 'pending_batch_full' });
    expect(res.body.error?.message).toMatch(/wait for the reply/i);
    expect(await stored()).toEqual(before);
  }

  test('the defaults are 20 messages and 16,000 characters', () => {
    expect([heed.config.PENDING_MAX_MESSAGES, heed.config.PENDING_MAX_CHARS]).toEqual([20, 16_000]);
  });

  test('a send past the message cap is refused with 429 pending_batch_full and stores nothing; a retried send of a stored message still returns it', async () => {
    const v = await heed.visitor();
    const conversationId = await v.conversation();
    const sent: { id: string; clientMessageId: string }[] = [];
    for (let i = 0; i < max(); i++) {
      const clientMessageId = randomUUID();
      const res = await send(v, conversationId, `message ${i}`, clientMessageId);
      expect(res.status).toBe(200);
      sent.push({ id: (res.body.result!.data as { id: string }).id, clientMessageId });
    }
    await expectFull(v, conversationId, 'one too many');

    const retry = await send(v, conversationId, 'message 3', sent[3]!.clientMessageId);
    expect(retry.status).toBe(200);
    expect((retry.body.result!.data as { id: string }).id).toBe(sent[3]!.id);
  });

  test('a send past the character cap is refused with 429 pending_batch_full', async () => {
    const v = await heed.visitor();
    const conversationId = await v.conversation();
    const full = Math.floor(heed.config.PENDING_MAX_CHARS / 4000);
    for (let i = 0; i < full; i++) expect((await send(v, conversationId, `${i}`.padEnd(4000, 'x'))).status).toBe(200);
    await expectFull(v, conversationId, 'x'.repeat(heed.config.PENDING_MAX_CHARS - full * 4000 + 1));
  });

  test('answered messages do not count: once the batch is answered the visitor can send again', async () => {
    const v = await heed.visitor();
    const conversationId = await v.conversation();
    for (let i = 0; i < max(); i++) await send(v, conversationId, `message ${i}`);
    await expectFull(v, conversationId, 'too many');
    await heed.services.db.message.updateMany({ where: { conversationId }, data: { state: 'answered' } });
    expect((await send(v, conversationId, 'and now?')).status).toBe(200);
  });

  test('claimed and failed messages count (they are the next prompt too)', async () => {
    const v = await heed.visitor();
    const conversationId = await v.conversation();
    for (let i = 0; i < max(); i++) await send(v, conversationId, `message ${i}`);
    const db = heed.services.db;
    const ids = (await db.message.findMany({ where: { conversationId }, select: { id: true }, orderBy: { seq: 'asc' } })).map((m) => m.id);
    await db.message.updateMany({ where: { id: { in: ids.slice(0, 10) } }, data: { state: 'failed' } });
    await db.message.updateMany({ where: { id: { in: ids.slice(10) } }, data: { state: 'claimed' } });
    await expectFull(v, conversationId, 'too many');
  });

  test('concurrent sends cannot overshoot the cap', async () => {
    const v = await heed.visitor();
    const conversationId = await v.conversation();
    const results = await Promise.all(Array.from({ length: max() + 5 }, (_, i) => send(v, conversationId, `burst ${i}`)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(max());
    expect(results.filter((r) => r.status === 429)).toHaveLength(5);
    expect(await heed.services.db.message.count({ where: { conversationId } })).toBe(max());
  });
});

describe('a visitor’s conversations', () => {
  test(`conversation.create past VISITOR_MAX_CONVERSATIONS (${MAX_CONVERSATIONS} here) is refused with 429 conversation_limit and stores nothing`, async () => {
    const v = await heed.visitor();
    for (let i = 0; i < MAX_CONVERSATIONS; i++) await v.conversation();
    const before = await stored();
    const res = await post('conversation.create', {}, v.token);
    expect(res.status).toBe(429);
    expect(res.body.error?.data).toMatchObject({ code: 'TOO_MANY_REQUESTS', reason: 'conversation_limit' });
    expect(await stored()).toEqual(before);
    // another visitor is not affected
    expect((await post('conversation.create', {}, (await heed.visitor()).token)).status).toBe(200);
  });

  test('concurrent creates cannot overshoot the cap', async () => {
    const v = await heed.visitor();
    const results = await Promise.all(Array.from({ length: MAX_CONVERSATIONS + 3 }, () => post('conversation.create', {}, v.token)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(MAX_CONVERSATIONS);
    expect(await heed.services.db.conversation.count({ where: { visitorId: v.visitorId } })).toBe(MAX_CONVERSATIONS);
  });

  test('the default cap is 200', async () => {
    const { loadConfig } = await import('../../api/src/config.ts');
    expect(loadConfig({}).VISITOR_MAX_CONVERSATIONS).toBe(200);
  });
});
