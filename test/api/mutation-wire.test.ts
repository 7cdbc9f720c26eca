import { randomUUID } from 'node:crypto';
import { request, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createHttpServer } from '../../api/src/http/server.ts';
import { Random } from '../../chaos/random.ts';
import { TestHeed, type TestVisitor } from '../support/harness.ts';
import { UNLIMITED_RATE_LIMITS } from '../support/unlimited-limits.ts';

/**
 * The lean mutation route (api/src/http/mutation-route.ts) answers single JSON mutations
 * itself; clients must not see a difference. Every request here goes to two servers on the
 * same services, one with the lean route and one with tRPC's own handler for everything, and
 * the answers must match: status, headers (but the ones that differ per request, and framing:
 * the lean route sends Content-Length, tRPC's answer is chunked) and body (ids and times aside,
 * as each server's request stores its own rows).
 */

let heed: TestHeed;
let lean: Server;
let reference: Server;
beforeAll(async () => {
  // the limits lifted but the send burst, so one send can be refused with Retry-After
  heed = await TestHeed.start({
    env: { RATE_LIMITS: JSON.stringify({ ...JSON.parse(UNLIMITED_RATE_LIMITS), sendBurst: { points: 3, seconds: 60 } }) },
  });
  lean = await createHttpServer(heed.services);
  reference = await createHttpServer(heed.services, undefined, { leanMutations: false });
  await Promise.all([lean, reference].map((server) => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))));
});
afterAll(async () => {
  lean?.close();
  reference?.close();
  await heed?.stop();
});

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

interface Call {
  path: string;
  headers?: Record<string, string>;
  body?: string;
  method?: string;
}

function send(server: Server, call: Call, encoding: BufferEncoding = 'utf8'): Promise<Answer> {
  const { port } = server.address() as AddressInfo;
  const body = Buffer.from(call.body ?? '', encoding);
  const headers = { 'content-length': String(body.length), ...call.headers };
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: call.path, method: call.method ?? 'POST', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => {
        const h: Record<string, string> = {};
        for (let i = 0; i < res.rawHeaders.length; i += 2) h[res.rawHeaders[i]!.toLowerCase()] = res.rawHeaders[i + 1]!;
        resolve({ status: res.statusCode!, headers: h, body: text });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const TIME = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g;

/** What must match: per-request values and framing set aside. */
function comparable(answer: Answer) {
  const {
    date: _date,
    'x-request-id': id,
    'content-length': _length,
    'transfer-encoding': _chunked,
    'retry-after': retryAfter,
    ...headers
  } = answer.headers;
  expect(id).toMatch(UUID);
  return {
    status: answer.status,
    headers: { ...headers, ...(retryAfter === undefined ? {} : { 'retry-after': /^\d+$/.test(retryAfter) ? '<seconds>' : retryAfter }) },
    body: answer.body
      .replace(UUID, '<uuid>')
      .replace(TIME, '<time>')
      .replace(/"seq":"\d+"/g, '"seq":<n>')
      .replace(/"retryAfterMs":\d+/g, '"retryAfterMs":<ms>')
      // the wait in words rounds the same window's end, read a moment apart
      .replace(/Try again in \d+ s\./g, 'Try again in <n> s.'),
  };
}

/**
 * Sends the call made by `setup` (run once per server, so each gets fresh state) to both
 * servers; they must answer alike. Answers the lean server's answer.
 */
async function bothAnswer(setup: () => Promise<Call> | Call): Promise<Answer> {
  const leanAnswer = await send(lean, await setup());
  const referenceAnswer = await send(reference, await setup());
  expect(comparable(leanAnswer)).toEqual(comparable(referenceAnswer));
  return leanAnswer;
}

const json = (visitor: TestVisitor | null, extra: Record<string, string> = {}) => ({
  'content-type': 'application/json',
  origin: 'https://shop.example',
  ...(visitor ? { authorization: `Bearer ${visitor.token}` } : {}),
  ...extra,
});

const sendCall = async (content = 'hello', extra: Record<string, string> = {}): Promise<Call> => {
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  return {
    path: '/trpc/message.send',
    headers: json(visitor, extra),
    body: JSON.stringify({ conversationId, clientMessageId: randomUUID(), content }),
  };
};

test('a send is answered by the lean route exactly as tRPC answers it, with a Content-Length', async () => {
  const answer = await bothAnswer(() => sendCall());
  expect(answer.status).toBe(200);
  expect(answer.headers['content-type']).toBe('application/json');
  expect(answer.headers['content-length']).toBe(String(Buffer.byteLength(answer.body)));
  expect(JSON.parse(answer.body).result.data).toMatchObject({ role: 'user', content: 'hello', state: 'pending' });
});

test('a charset on the content type, a BOM before the body, and non-ASCII text are read as tRPC reads them', async () => {
  const answer = await bothAnswer(() => sendCall('héllo 👋', { 'content-type': 'application/json; charset=utf-8' }));
  expect(JSON.parse(answer.body).result.data.content).toBe('héllo 👋');
  const bom = await bothAnswer(async () => {
    const call = await sendCall('with a BOM');
    return { ...call, body: `\uFEFF${call.body}` };
  });
  expect(bom.status).toBe(200);
});

test('input errors (broken JSON, an empty body, null, missing fields) get tRPC’s 400 with the same message and field errors', async () => {
  const bodies: ((conversationId: string) => string)[] = [
    () => '{broken',
    () => '',
    () => 'null',
    (conversationId) => JSON.stringify({ conversationId }),
    (conversationId) => JSON.stringify({ conversationId, clientMessageId: randomUUID(), content: 'x', extra: 1 }),
  ];
  for (const body of bodies) {
    const answer = await bothAnswer(async () => {
      const visitor = await heed.visitor();
      return { path: '/trpc/message.send', headers: json(visitor), body: body(await visitor.conversation()) };
    });
    expect(answer.status).toBe(400);
  }
});

test('refusals keep their status, reason and headers: no token, another visitor’s conversation, the send limit with Retry-After', async () => {
  const unsigned = await bothAnswer(async () => ({ ...(await sendCall()), headers: json(null) }));
  expect(unsigned.status).toBe(401);
  const forged = await bothAnswer(async () => ({ ...(await sendCall()), headers: json(null, { authorization: 'Bearer not-a-token' }) }));
  expect(forged.status).toBe(401);

  const notMine = await bothAnswer(async () => {
    const owner = await heed.visitor();
    const conversationId = await owner.conversation();
    const stranger = await heed.visitor();
    return {
      path: '/trpc/message.send',
      headers: json(stranger),
      body: JSON.stringify({ conversationId, clientMessageId: randomUUID(), content: 'hi' }),
    };
  });
  expect(notMine.status).toBe(404);

  const limited = await bothAnswer(async () => {
    const visitor = await heed.visitor();
    const conversationId = await visitor.conversation();
    for (let i = 0; i < 3; i++) await visitor.send(conversationId, `quick ${i}`);
    return {
      path: '/trpc/message.send',
      headers: json(visitor),
      body: JSON.stringify({ conversationId, clientMessageId: randomUUID(), content: 'one too many' }),
    };
  });
  expect(limited.status).toBe(429);
  expect(limited.headers['retry-after']).toMatch(/^\d+$/);
  expect(JSON.parse(limited.body).error.data.reason).toBe('send_burst_limit');
});

test('a mutation that sets a cookie, and one without input, answer alike', async () => {
  // the console's sign-out clears its cookie; it must come from the console's own origin
  const signOut = await bothAnswer(() => ({
    path: '/trpc/console.auth.signOut',
    headers: { 'content-type': 'application/json', host: 'heed.test', origin: 'http://heed.test' },
  }));
  expect(signOut.status).toBe(200);
  expect(signOut.headers['set-cookie']).toMatch(/Max-Age=0/);
  const crossOrigin = await bothAnswer(() => ({ path: '/trpc/console.auth.signOut', headers: json(null) }));
  expect(crossOrigin.status).toBe(403);

  const created = await bothAnswer(async () => ({ path: '/trpc/conversation.create', headers: json(await heed.visitor()) }));
  expect(created.status).toBe(200);
});

test('what the lean route leaves to tRPC still gets tRPC’s answer: batches, queries, other content types, unknown paths', async () => {
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  const input = JSON.stringify({ conversationId, clientMessageId: randomUUID(), content: 'batched' });
  const batch = await bothAnswer(() => ({
    path: '/trpc/message.send?batch=1',
    headers: json(visitor),
    body: JSON.stringify({ 0: JSON.parse(input) }),
  }));
  expect(batch.status).toBe(200);
  expect(batch.headers['transfer-encoding']).toBe('chunked');

  const query = await bothAnswer(() => ({ path: '/trpc/conversation.list', headers: json(visitor), body: '{}' }));
  expect(query.status).toBe(405);
  const text = await bothAnswer(async () => ({ ...(await sendCall()), headers: json(visitor, { 'content-type': 'text/plain' }) }));
  expect(text.status).toBe(415);
  const unknown = await bothAnswer(() => ({ path: '/trpc/message.nothing', headers: json(visitor), body: '{}' }));
  expect(unknown.status).toBe(404);
  const escaped = await bothAnswer(async () => ({ ...(await sendCall()), path: '/trpc/message%2Esend' }));
  expect(escaped.status).toBe(200);
});

test('a client that hangs up halfway through its body stores nothing, and the server goes on answering', async () => {
  const call = await sendCall('never finished');
  const { port } = lean.address() as AddressInfo;
  const socket = connect(port, '127.0.0.1');
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  const head = Object.entries({ ...call.headers, host: 'x', 'content-length': String(Buffer.byteLength(call.body!)) }).map(
    ([k, v]) => `${k}: ${v}`,
  );
  // the head and half the body handed to the network, then the client is gone
  await new Promise<void>((resolve) =>
    socket.write(`POST ${call.path} HTTP/1.1\r\n${head.join('\r\n')}\r\n\r\n${call.body!.slice(0, 20)}`, () => resolve()),
  );
  await new Promise((resolve) => socket.destroy().once('close', resolve));
  const answer = await send(lean, await sendCall('after the hang-up'));
  expect(answer.status).toBe(200);
  expect(await heed.services.db.message.count({ where: { content: 'never finished' } })).toBe(0);
});

test('broken bodies of every kind get the same answer from both, never a 5xx (150 seeded cases)', async () => {
  const random = new Random(20261202);
  const junk = ['"', '{', '}', '[', ']', ',', ':', '\\', '\u0000', '\uFEFF', 'null', '1e999', '"__proto__"', '\ud800', 'é', '𝄞'];
  const types = ['application/json', 'Application/JSON; charset=latin1', 'application/json;;'];
  for (let i = 0; i < 150; i++) {
    // a visitor of its own each time: this file's send burst is 3
    const visitor = await heed.visitor();
    const valid = JSON.stringify({
      conversationId: await visitor.conversation(),
      clientMessageId: randomUUID(),
      content: 'x'.repeat(random.int(1, 40)),
    });
    const at = random.int(0, valid.length);
    const body = random.pick([
      valid.slice(0, at),
      valid.slice(0, at) + random.pick(junk) + valid.slice(at),
      JSON.stringify([JSON.parse(valid)]),
      '['.repeat(random.int(0, 20_000)) + ']'.repeat(random.int(0, 20_000)),
      JSON.stringify({ ...JSON.parse(valid), content: junk.join('').repeat(random.int(0, 300)) }),
    ]);
    const bytes = Buffer.from(body);
    // now and then a byte that is not UTF-8
    if (bytes.length > 0 && random.next() < 0.1) bytes[random.int(0, bytes.length - 1)] = 0xff;
    // latin1 carries each byte as it is
    const call = {
      path: '/trpc/message.send',
      headers: json(visitor, { 'content-type': random.pick(types) }),
      body: bytes.toString('latin1'),
    };
    const [leanAnswer, referenceAnswer] = [await send(lean, call, 'latin1'), await send(reference, call, 'latin1')];
    expect(leanAnswer.status).toBeLessThan(500);
    // a stored send is stored once, so the second answer is the retry's: the same row
    expect(comparable(leanAnswer)).toEqual(comparable(referenceAnswer));
  }
});
