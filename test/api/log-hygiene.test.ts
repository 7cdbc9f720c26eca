import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { makeClient, TestHeed } from '../support/harness.ts';
import { findMarker, markerPlacesOf } from '../support/marker-search.ts';
import { isEmbeddedTestRun } from '../support/stores.ts';
import { describeError } from '../../api/src/logging/describe-error.ts';
import { addressKey } from '../../api/src/limits/address-key.ts';

/**
 * Logs are read by more people than conversations are: they must never hold what a visitor
 * wrote, what the model said, a token, a secret or a password. A full journey (identify,
 * sends, a reply, a provider error echoing the prompt, invalid input, a title pass, the
 * operator API) runs, then its captured log is searched for every secret it handled.
 */
const ADMIN_TOKEN = `admin-${randomUUID()}-${randomUUID()}`;
const CRON_SECRET = `cron-${randomUUID()}-${randomUUID()}`;
const IDENTITY_SECRET = `identity-${randomUUID()}`;

let heed: TestHeed;
beforeAll(async () => {
  // behind one trusted proxy, so a request can speak from the address it forwards; the default
  // limits (windows of minutes), so what they counted is still there to be searched
  heed = await TestHeed.start({ env: { ADMIN_TOKEN, CRON_SECRET, MODEL_MAX_ATTEMPTS: '1', TRUST_PROXY: '1', RATE_LIMITS: '{}' } });
  await heed.services.db.site.update({ where: { key: heed.siteKey }, data: { identitySecrets: [IDENTITY_SECRET] } });
});
afterAll(() => heed?.stop());

test('a full journey logs no message text, reply text, token, identity, secret or password', async () => {
  const marker = `hunter2-${randomUUID()}`;
  const userId = `user-${randomUUID()}`;
  const jwt = await new SignJWT({ sub: userId, email: 'ana@example.com' })
    .setProtectedHeader({ alg: 'HS256' })
    .setExpirationTime('10m')
    .sign(new TextEncoder().encode(IDENTITY_SECRET));
  const session = await makeClient(heed.url, null).session.start.mutate({ siteKey: heed.siteKey, identity: { userId, token: jwt } });
  const api = makeClient(heed.url, session.visitorToken);
  const { id: conversationId } = await api.conversation.create.mutate();
  // a stream ticket travels in the event stream's URL: it must not reach a log either
  const { ticket } = await api.events.ticket.mutate();

  // a reply, then a provider error whose body echoes the prompt (some providers do)
  heed.model.script(
    { text: `Reply mentioning ${marker}-reply` },
    { error: { status: 400, message: `Invalid prompt: my password is ${marker}` } },
  );
  await api.message.send.mutate({ conversationId, clientMessageId: randomUUID(), content: `my password is ${marker}` });
  await heed.until('the reply', async () =>
    (await api.conversation.get.query({ conversationId })).messages.some((m) => m.role === 'assistant'),
  );
  await api.message.send.mutate({ conversationId, clientMessageId: randomUUID(), content: `again ${marker}` });
  await heed.until('the failed reply', async () => (await api.conversation.get.query({ conversationId })).messages.some((m) => m.error));

  // refused and invalid requests
  await makeClient(heed.url, `${session.visitorToken}x`)
    .conversation.list.query()
    .catch(() => {});
  await api.message.send.mutate({ conversationId, clientMessageId: 'x', content: `${marker}` }).catch(() => {});
  await makeClient(heed.url, ADMIN_TOKEN).admin.titleChecks.query({});
  await fetch(`${heed.url}/api/cron/titles`, { method: 'POST', headers: { authorization: `Bearer ${CRON_SECRET}` } });
  await heed.titlePass();
  // a request that fails inside the server, carrying a cookie and the visitor's token
  await heed.services.db.$executeRawUnsafe(
    `ALTER TABLE "Message" ADD CONSTRAINT hygiene_refuses CHECK (position('refuse' in content) = 0) NOT VALID`,
  );
  await fetch(`${heed.url}/trpc/message.send`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${session.visitorToken}`, cookie: `sid=${marker}` },
    body: JSON.stringify({ conversationId, clientMessageId: randomUUID(), content: `refuse ${marker}` }),
  });
  await heed.services.db.$executeRawUnsafe('ALTER TABLE "Message" DROP CONSTRAINT hygiene_refuses');

  // one JSON object a line, as production prints it
  for (const line of heed.logs) expect(() => JSON.parse(line), line).not.toThrow();
  const log = heed.logs.join('\n');
  expect(log).toContain('failed'); // the provider error was logged…
  for (const secret of [
    marker,
    session.visitorToken,
    ticket,
    jwt,
    userId,
    'ana@example.com',
    IDENTITY_SECRET,
    ADMIN_TOKEN,
    CRON_SECRET,
    heed.config.HEED_SECRET,
  ]) {
    expect(log, `the log holds ${secret.slice(0, 12)}…`).not.toContain(secret); // …without what it echoed
  }
});

test('a client’s address reaches no log line and no store: the per-address limits count a keyed hash of it', async () => {
  const address = '203.0.113.77';
  const forwarded = { 'x-forwarded-for': address };
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${heed.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...forwarded, ...headers },
      body: JSON.stringify(body),
    });

  // every per-address limit: session starts, sends, an upload, an event stream, a failed sign-in
  const started = await (await post('/trpc/session.start', { siteKey: heed.siteKey })).json();
  const token: string = started.result.data.visitorToken;
  const bearer = { authorization: `Bearer ${token}` };
  const api = makeClient(heed.url, token);
  const { id: conversationId } = await api.conversation.create.mutate();
  heed.model.script({ text: 'Noted.' });
  expect((await post('/trpc/message.send', { conversationId, clientMessageId: randomUUID(), content: 'hello' }, bearer)).status).toBe(200);
  const upload = await fetch(`${heed.url}/files?conversationId=${conversationId}&name=note.txt`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain', ...forwarded, ...bearer },
    body: 'a note',
  });
  expect(upload.status).toBe(201);
  const signIn = await post(
    '/trpc/console.auth.signIn',
    { email: 'nobody@example.com', password: 'not-the-password-1' },
    { origin: heed.url },
  );
  expect(signIn.status).toBe(401);
  const { ticket } = await api.events.ticket.mutate();
  const stream = await openStream(`/trpc/events.subscribe?connectionParams=${encodeURIComponent(JSON.stringify({ ticket }))}`, forwarded);
  try {
    // the limits counted it (in Redis, where there is one) under its keyed hash, never under the address
    if (!isEmbeddedTestRun()) {
      const counted = await findMarker(markerPlacesOf(heed), addressKey(heed.config.HEED_SECRET, address));
      for (const limit of ['sessionStart', 'sendsPerIp', 'signInIp', 'streams:ip']) {
        expect(counted, limit).toContainEqual(expect.stringContaining(`limit:${limit}:`));
      }
    }
    expect(await findMarker(markerPlacesOf(heed), address)).toEqual([]);
  } finally {
    stream.destroy();
  }
  expect(heed.logs.join('\n')).not.toContain(address);
});

/** Opens an event stream over plain HTTP with `headers`; resolves once the server said it is connected. */
function openStream(path: string, headers: Record<string, string>): Promise<{ destroy(): void }> {
  const { port } = new URL(heed.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { accept: 'text/event-stream', ...headers } }, (res) => {
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => chunk.includes('event: connected') && resolve(req));
      res.on('error', () => {});
    });
    req.on('error', (err) => (/socket hang up|aborted|ECONNRESET/.test(String(err)) ? undefined : reject(err)));
    req.end();
  });
}

test('an error is described by kind, code and status; database and provider messages are left out', () => {
  expect(describeError(new Error('boom\nat line two'))).toBe('Error: boom');
  const prisma = Object.assign(new Error('Invalid `prisma.message.create()` invocation: { content: "secret" }'), {
    name: 'PrismaClientKnownRequestError',
    code: 'P2002',
  });
  expect(describeError(prisma)).toBe('PrismaClientKnownRequestError P2002');
  const provider = Object.assign(new Error('400 Invalid prompt: my password is x'), { name: 'BadRequestError', status: 400 });
  expect(describeError(provider)).toBe('BadRequestError (HTTP 400)');
  expect(describeError('x'.repeat(500)).length).toBeLessThan(200);
});
