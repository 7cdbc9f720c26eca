import { request } from 'node:http';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import type { TestHeed as TestHeedType } from '../support/harness.ts';

// pings every 300 ms (read when api/src/trpc/trpc.ts loads), so a quiet stream shows one soon
vi.hoisted(() => {
  process.env.SSE_PING_MS = '300';
});

const { TestHeed, TestVisitor, makeClient } = await import('../support/harness.ts');

/**
 * The event stream's bytes, pinned: the widget's own EventSource client (widget/src/state/
 * trpc-wire.ts) and tRPC's httpSubscriptionLink both read them, so the lean writer
 * (api/src/http/event-stream-route.ts) must send exactly what tRPC's SSE producer sent. These
 * expectations were captured from tRPC's own pipeline before the lean writer replaced it.
 */

let heed: TestHeedType;
beforeAll(async () => {
  heed = await TestHeed.start({ env: { SSE_PING_MS: '300' } });
});
afterAll(() => heed?.stop());

interface Capture {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** GETs `path` raw and reads until `until` matches the body (or `ms` pass, or `signal` aborts), then disconnects. */
function capture(path: string, headers: Record<string, string>, until: RegExp, ms = 5_000, signal?: AbortSignal): Promise<Capture> {
  const { port } = new URL(heed.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers }, (res) => {
      let body = '';
      const done = () => {
        clearTimeout(timer);
        req.destroy();
        const h: Record<string, string> = {};
        for (let i = 0; i < res.rawHeaders.length; i += 2) h[res.rawHeaders[i]!.toLowerCase()] = res.rawHeaders[i + 1]!;
        resolve({ status: res.statusCode!, headers: h, body });
      };
      const timer = setTimeout(done, ms);
      signal?.addEventListener('abort', done, { once: true });
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        body += d;
        if (until.test(body)) done();
      });
      res.on('end', done);
      res.on('error', () => {});
    });
    req.on('error', (err) => (/socket hang up|aborted/.test(String(err)) ? undefined : reject(err)));
    req.end();
  });
}

const streamPath = (input: unknown, params: unknown) =>
  `/trpc/events.subscribe?input=${encodeURIComponent(JSON.stringify(input))}&connectionParams=${encodeURIComponent(JSON.stringify(params))}`;

/** Headers that differ on every request, or that only Node adds. */
function stable(headers: Record<string, string>) {
  const { date: _date, 'x-request-id': id, ...rest } = headers;
  expect(id).toMatch(/^[0-9a-f-]{36}$/);
  return rest;
}

/** What tRPC's pipeline answered, `Vary` included (tRPC replaced CORS's `Vary: Origin` with its own). */
const SSE_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  vary: 'trpc-accept, accept',
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform',
  'x-accel-buffering': 'no',
  connection: 'keep-alive',
  'transfer-encoding': 'chunked',
};
const CONNECTED = 'event: connected\ndata: {"reconnectAfterInactivityMs":900}\n\n\n';
const PING = 'event: ping\ndata: \n\n\n';
const refusal = (code: string, httpStatus: number, reason: string | null, message: string, extra: object = {}) =>
  `event: serialized-error\ndata: ${JSON.stringify({
    message,
    code: { UNAUTHORIZED: -32001, FORBIDDEN: -32003, TOO_MANY_REQUESTS: -32029, BAD_REQUEST: -32600 }[code],
    data: { code, httpStatus, path: 'events.subscribe', fieldErrors: null, formErrors: null, reason, retryAfterMs: null, ...extra },
  })}\n\n\n`;

test('a stream opens with `connected`, pings while quiet, and sends the security and SSE headers', async () => {
  const visitor = await heed.visitor();
  const { ticket } = await visitor.api.events.ticket.mutate();
  const got = await capture(streamPath({}, { ticket }), { origin: 'https://shop.example' }, /event: ping\ndata: \n\n\n/);
  expect(got.status).toBe(200);
  const headers = stable(got.headers);
  expect(headers).toEqual({ ...SSE_HEADERS, 'access-control-allow-origin': 'https://shop.example' });
  expect(got.body).toBe(CONNECTED + PING);
});

test('durable events carry `id:` and `eventId`; after one, untracked events blank the id and `restore-id` puts it back', async () => {
  const visitor = await heed.visitor();
  const { cursor } = await visitor.api.conversation.list.query();
  const { ticket } = await visitor.api.events.ticket.mutate();
  heed.model.script({ text: 'alpha beta', chunkSize: 6, chunkDelayMs: 30 });
  const before = await heed.openStreams();
  const stream = capture(streamPath({ lastEventId: cursor }, { ticket }), {}, /"type":"reply.completed"[^\n]*\nid: \d+\n/, 10_000);
  await heed.streamOpened(before);
  const conversationId = await visitor.conversation();
  await visitor.send(conversationId, 'hello');
  const got = await stream;
  const events = got.body.split('\n\n\n').slice(0, -1);
  expect(`${events[0]}\n\n\n`).toBe(CONNECTED);
  let lastId: string | null = null;
  for (let i = 1; i < events.length; i++) {
    const e = events[i]!;
    if (e === PING.slice(0, -3)) continue;
    const tracked = /^data: (\{.*\})\nid: (\d+)$/.exec(e);
    if (tracked) {
      expect(JSON.parse(tracked[1]!).eventId).toBe(tracked[2]);
      lastId = tracked[2]!;
      continue;
    }
    if (lastId === null) {
      expect(e).toMatch(/^data: \{"type":"[^"]+".*\}$/);
      expect(JSON.parse(e.slice(6)).eventId).toBeUndefined();
    } else {
      expect(e).toMatch(/^data: \{"type":"reply\.(delta|snapshot)".*\}\nid: $/);
      expect(events[++i]).toBe(`event: restore-id\ndata: \nid: ${lastId}`);
    }
  }
  expect(got.body).toMatch(/"type":"reply\.delta"/);
  expect(lastId).not.toBeNull();
});

test('a reconnect’s Last-Event-ID restores the id after untracked events from the start', async () => {
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  const { cursor } = await visitor.api.conversation.list.query();
  const { ticket } = await visitor.api.events.ticket.mutate();
  heed.model.script({ text: 'gamma', chunkSize: 10, chunkDelayMs: 10 });
  const before = await heed.openStreams();
  const stream = capture(streamPath({}, { ticket }), { 'last-event-id': cursor }, /event: restore-id\ndata: \nid: \d+\n\n\n/, 10_000);
  await heed.streamOpened(before);
  await visitor.send(conversationId, 'hi');
  const got = await stream;
  const firstUntracked = got.body.split('\n\n\n').findIndex((e) => /^data: \{"type":"reply\./.test(e));
  const events = got.body.split('\n\n\n');
  // untracked after a durable event or after the Last-Event-ID given: blank id, then restore
  expect(events[firstUntracked]).toMatch(/\nid: $/);
  expect(events[firstUntracked + 1]).toMatch(/^event: restore-id\ndata: \nid: \d+$/);
});

test('refusals: a bad ticket, a deleted visitor, an unlisted origin, a bad cursor, full stream slots', async () => {
  const bad = await capture(streamPath({}, { ticket: 'nope' }), {}, /serialized-error.*\n\n\n/);
  expect(bad.status).toBe(200);
  expect(stable(bad.headers)).toEqual(SSE_HEADERS);
  const invalid = refusal('UNAUTHORIZED', 401, 'stream_ticket_invalid', 'A valid stream ticket is required. Get one with events.ticket.');
  expect(bad.body).toBe(CONNECTED + invalid);

  const none = await capture(streamPath({}, {}), {}, /serialized-error.*\n\n\n/);
  expect(none.body).toBe(CONNECTED + invalid);

  const gone = await heed.visitor();
  const { ticket: goneTicket } = await gone.api.events.ticket.mutate();
  await heed.services.db.visitor.delete({ where: { id: gone.visitorId } });
  expect((await capture(streamPath({}, { ticket: goneTicket }), {}, /serialized-error.*\n\n\n/)).body).toBe(CONNECTED + invalid);

  const visitor = await heed.visitor();
  const { ticket } = await visitor.api.events.ticket.mutate();
  const badCursor = await capture(streamPath({ lastEventId: 'x' }, { ticket }), {}, /serialized-error.*\n\n\n/);
  const zod = JSON.parse(/data: (.*)\n/.exec(badCursor.body.slice(CONNECTED.length))![1]!);
  expect(badCursor.body).toBe(
    `${CONNECTED}event: serialized-error\ndata: ${JSON.stringify({ message: zod.message, code: -32600, data: { code: 'BAD_REQUEST', httpStatus: 400, path: 'events.subscribe', fieldErrors: { lastEventId: ['a decimal event id'] }, formErrors: [], reason: null, retryAfterMs: null } })}\n\n\n`,
  );
  expect(zod.message).toContain('a decimal event id');

  await heed.services.db.site.update({ where: { key: heed.siteKey }, data: { allowedOrigins: ['https://shop.example'] } });
  heed.services.sites.clear();
  try {
    const other = await capture(streamPath({}, { ticket }), { origin: 'https://evil.example' }, /serialized-error.*\n\n\n/);
    expect(stable(other.headers)).toEqual({ ...SSE_HEADERS, 'access-control-allow-origin': 'https://evil.example' });
    expect(other.body).toBe(
      CONNECTED +
        refusal(
          'FORBIDDEN',
          403,
          'origin_not_allowed',
          "The page's origin https://evil.example is not among this site's allowed origins: add it in the site's settings.",
        ),
    );
  } finally {
    await heed.services.db.site.update({ where: { key: heed.siteKey }, data: { allowedOrigins: [] } });
    heed.services.sites.clear();
  }

  const key = `wire-${Date.now()}`;
  await heed.services.db.site.create({ data: { key, name: 'One stream', limits: { streamsPerVisitor: 1 } } });
  const session = await makeClient(heed.url, null).session.start.mutate({ siteKey: key });
  const limited = new TestVisitor(heed, session.visitorToken, session.visitorId);
  const before = await heed.openStreams();
  const release = new AbortController();
  const held = capture(streamPath({}, { ticket: (await limited.api.events.ticket.mutate()).ticket }), {}, /never/, 30_000, release.signal);
  await heed.streamOpened(before);
  const full = await capture(streamPath({}, { ticket: (await limited.api.events.ticket.mutate()).ticket }), {}, /serialized-error.*\n\n\n/);
  expect(full.headers['retry-after']).toBeUndefined();
  const data = JSON.parse(/data: (.*)\n/.exec(full.body.slice(CONNECTED.length))![1]!);
  expect(data.data.retryAfterMs).toBeGreaterThan(0);
  expect(full.body).toBe(
    CONNECTED + refusal('TOO_MANY_REQUESTS', 429, 'streams_per_visitor_limit', data.message, { retryAfterMs: data.data.retryAfterMs }),
  );
  expect(data.message).toMatch(/^Too many requests\. Try again in \d+ s\.$/);
  release.abort();
  await held;
});

test('what the lean route does not serve (a batch, unparsable input or connection params) still gets tRPC’s own answer', async () => {
  const visitor = await heed.visitor();
  const { ticket } = await visitor.api.events.ticket.mutate();
  const batch = await capture(`${streamPath({ 0: {} }, { ticket })}&batch=1`, {}, /\}$/);
  expect(batch.headers['content-type']).toBe('application/json');
  expect(batch.body).toContain('Cannot batch subscription calls');
  const badJson = await capture(
    `/trpc/events.subscribe?input=%7B&connectionParams=${encodeURIComponent(JSON.stringify({ ticket }))}`,
    {},
    /serialized-error.*\n\n\n|\}$/,
  );
  expect(badJson.status).toBeLessThan(500);
  expect(badJson.body).not.toContain('INTERNAL_SERVER_ERROR');
  const badParams = await capture('/trpc/events.subscribe?input=%7B%7D&connectionParams=%7B', {}, /\}$/);
  expect(badParams.status).toBe(400);
  expect(badParams.body).toContain('Not JSON-parsable query params');
});
