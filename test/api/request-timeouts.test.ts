import { connect } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { TestHeed, type TestVisitor } from '../support/harness.ts';

/**
 * A client that sends its request slowly (slowloris) is cut off once HTTP_REQUEST_TIMEOUT_MS
 * has passed, with 408, instead of holding a connection for Node's default 300 s. The timeout
 * covers receiving the request only: an SSE response lives on well past it. A short timeout
 * here keeps the file fast; what is asserted is that the cut happens, never how fast.
 */
const TIMEOUT_MS = 1000;
let heed: TestHeed;
let visitor: TestVisitor;

beforeAll(async () => {
  heed = await TestHeed.start({ workers: 0, env: { HTTP_REQUEST_TIMEOUT_MS: String(TIMEOUT_MS) } });
  visitor = await heed.visitor();
});
afterAll(() => heed?.stop());

/**
 * Opens a raw connection, writes `head`, then one byte of `drip` every 100 ms for as long as
 * the socket is open. Resolves with what the server answered once it closes the connection;
 * rejects if it is still open after `giveUpMs` (the hang detector, far above the timeout).
 */
function trickle(head: string, drip: string, giveUpMs = 20_000): Promise<{ answer: string; dripped: number }> {
  const { port } = new URL(heed.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    let answer = '';
    let dripped = 0;
    const timer = setInterval(() => {
      if (socket.writable && dripped < drip.length) socket.write(drip[dripped++]!);
    }, 100);
    const giveUp = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the server still held the connection after ${giveUpMs} ms (${dripped} bytes dripped)`));
    }, giveUpMs);
    socket.on('data', (d) => (answer += d.toString('latin1')));
    socket.on('error', () => {}); // a reset after the 408 is a close too
    socket.on('close', () => {
      clearInterval(timer);
      clearTimeout(giveUp);
      resolve({ answer, dripped });
    });
    socket.write(head);
  });
}

async function stored() {
  const db = heed.services.db;
  return { messages: await db.message.count(), events: await db.event.count() };
}

test('a client that trickles its request body is answered 408 and disconnected, and nothing is stored', async () => {
  const conversationId = await visitor.conversation();
  const before = await stored();
  const body = JSON.stringify({ conversationId, clientMessageId: 'slow-body-0001', content: 'x'.repeat(2000) });
  const head = [
    'POST /trpc/message.send HTTP/1.1',
    'Host: 127.0.0.1',
    'Content-Type: application/json',
    `Authorization: Bearer ${visitor.token}`,
    `Content-Length: ${Buffer.byteLength(body)}`,
    '',
    '',
  ].join('\r\n');
  const { answer, dripped } = await trickle(head, body);
  expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  expect(dripped).toBeLessThan(body.length);
  expect(await stored()).toEqual(before);
});

test('a client that trickles its headers is answered 408 and disconnected', async () => {
  const { answer, dripped } = await trickle('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n', `X-Slow: ${'a'.repeat(1000)}\r\n\r\n`);
  expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  expect(dripped).toBeLessThan(1000);
});

test('a live SSE subscription outlives the request timeout and still delivers events', async () => {
  const { ticket } = await visitor.api.events.ticket.mutate();
  const url = `${heed.url}/trpc/events.subscribe?input=${encodeURIComponent('{}')}&connectionParams=${encodeURIComponent(JSON.stringify({ ticket }))}`;
  const res = await fetch(url, { headers: { accept: 'text/event-stream' }, signal: AbortSignal.timeout(30_000) });
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const readUntil = async (pattern: RegExp) => {
    while (!pattern.test(text)) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the stream ended; it had sent: ${text}`);
      text += decoder.decode(value, { stream: true });
    }
  };
  try {
    await readUntil(/event: connected/);
    // well past the request timeout and the server's checks of it
    await new Promise((r) => setTimeout(r, TIMEOUT_MS * 3));
    const conversationId = await visitor.conversation();
    await readUntil(new RegExp(`"conversationId":"${conversationId}"`));
  } finally {
    await reader.cancel().catch(() => {});
  }
});

test('idle keep-alive connections outlive a load balancer’s usual 60 s idle timeout; the default request timeout is 30 s', async () => {
  expect(heed.server.keepAliveTimeout).toBeGreaterThan(60_000);
  expect(heed.server.requestTimeout).toBe(TIMEOUT_MS);
  expect(heed.server.headersTimeout).toBeLessThanOrEqual(TIMEOUT_MS);
  const { loadConfig } = await import('../../api/src/config.ts');
  expect(loadConfig({}).HTTP_REQUEST_TIMEOUT_MS).toBe(30_000);
});
