import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { TestHeed, type TestVisitor } from '../support/harness.ts';

/**
 * Inputs that pass a loose schema but that PostgreSQL, BigInt or `decodeURIComponent` cannot
 * take used to end in a 500 (a NUL in a text column, year 0000 in a timestamptz, an event id
 * above bigint's range, a broken `%` escape). Each is now refused at the edge with a 4xx that
 * names the field, nothing is stored, and nothing is logged as an internal error.
 */
const ADMIN_TOKEN = 'edge-validation-admin-token-0123';
let heed: TestHeed;
let visitor: TestVisitor;
let conversationId: string;

beforeAll(async () => {
  heed = await TestHeed.start({ workers: 0, site: true, env: { ADMIN_TOKEN } });
  visitor = await heed.visitor();
  conversationId = await visitor.conversation();
});
afterAll(() => heed?.stop());

interface ErrorBody {
  error?: { message: string; data: { code: string; httpStatus: number; fieldErrors: Record<string, string[]> | null } };
}

async function call(
  method: 'GET' | 'POST',
  path: string,
  input: unknown,
  token: string | null,
): Promise<{ status: number; body: ErrorBody }> {
  const headers = { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) };
  const res =
    method === 'POST'
      ? await fetch(`${heed.url}/trpc/${path}`, { method, headers, body: JSON.stringify(input) })
      : await fetch(`${heed.url}/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`, { headers });
  return { status: res.status, body: (await res.json()) as ErrorBody };
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

/** Expects a 400 naming `field`, nothing stored and no internal error logged. */
async function refusedNaming(field: string, method: 'GET' | 'POST', path: string, input: unknown, token: string | null) {
  const before = await stored();
  const logged = heed.logs.length;
  const res = await call(method, path, input, token);
  expect({ status: res.status, code: res.body.error?.data.code }, JSON.stringify(input)).toEqual({ status: 400, code: 'BAD_REQUEST' });
  expect(res.body.error?.data.fieldErrors?.[field], JSON.stringify(res.body)).toBeDefined();
  expect(await stored()).toEqual(before);
  expect(heed.logs.slice(logged)).toEqual([]);
}

/** Dates the loose ISO format allows but PostgreSQL timestamptz or JS cannot hold, or that mean nothing here. */
const unstorableDates = [
  '0000-01-01T00:00:00Z', // year 0: PostgreSQL refuses it ("date/time field value out of range")
  '0000-01-01T00:00:00+14:00', // before year 1 in UTC
  '-004714-11-23T00:00:00Z', // before 4713 BC, PostgreSQL's first day
  '+010000-01-01T00:00:00Z', // year 10000
  '+275760-09-13T00:00:01Z', // past the last moment a JS Date can hold
  '9999-12-31T23:59:59-00:01', // year 10000 in UTC
  '1999-12-31T23:59:59Z', // before Heed existed
  '2024-02-30T00:00:00Z', // no such day
  'not a date',
];

describe('session.start', () => {
  test('a site key containing a NUL character is refused with 400 naming the field, and no visitor is created', async () => {
    await refusedNaming('siteKey', 'POST', 'session.start', { siteKey: `${heed.siteKey}\u0000` }, null);
    await refusedNaming('siteKey', 'POST', 'session.start', { siteKey: '\u0000' }, null);
  });

  test('a visitor token containing a NUL character is refused with 400 naming the field', async () => {
    await refusedNaming('visitorToken', 'POST', 'session.start', { siteKey: heed.siteKey, visitorToken: `${visitor.token}\u0000` }, null);
  });
});

describe('conversation.markRead', () => {
  test('a lastAssistantAt that PostgreSQL or JS cannot hold (year 0000, 10000, before 4713 BC) is refused with 400 naming the field', async () => {
    for (const lastAssistantAt of unstorableDates) {
      await refusedNaming('lastAssistantAt', 'POST', 'conversation.markRead', { conversationId, lastAssistantAt }, visitor.token);
    }
  });

  test('a lastAssistantAt from 2000-01-01 to 9999-12-31 is accepted (a future one is clamped to the newest reply)', async () => {
    for (const lastAssistantAt of [
      '2000-01-01T00:00:00Z',
      new Date().toISOString(),
      '2026-01-01T12:00:00.123456+05:30',
      '9999-12-31T23:59:59.999Z',
    ]) {
      const res = await call('POST', 'conversation.markRead', { conversationId, lastAssistantAt }, visitor.token);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
  });
});

describe('admin.titleChecks', () => {
  test('a since that PostgreSQL or JS cannot hold is refused with 400 naming the field', async () => {
    for (const since of unstorableDates) await refusedNaming('since', 'GET', 'admin.titleChecks', { since }, ADMIN_TOKEN);
  });

  test('a since within the range is accepted', async () => {
    const res = await call('GET', 'admin.titleChecks', { since: '2000-01-01T00:00:00Z' }, ADMIN_TOKEN);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });
});

describe('events.subscribe', () => {
  /**
   * Opens the event stream over raw SSE and returns how it starts: the error it fails with
   * (`{ code, fieldErrors }`), or 'open' when no error came within `quietMs`.
   */
  async function streamOutcome(input: object, headers: Record<string, string> = {}, quietMs = 500) {
    const { ticket } = await visitor.api.events.ticket.mutate();
    const query = `input=${encodeURIComponent(JSON.stringify(input))}&connectionParams=${encodeURIComponent(JSON.stringify({ ticket }))}`;
    const res = await fetch(`${heed.url}/trpc/events.subscribe?${query}`, {
      headers: { accept: 'text/event-stream', ...headers },
      signal: AbortSignal.timeout(10_000),
    });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    const quiet = new Promise<'quiet'>((resolve) => setTimeout(() => resolve('quiet'), quietMs));
    try {
      for (;;) {
        const error = /event: serialized-error\ndata: (.*)\n/.exec(text);
        if (error) {
          const { data } = JSON.parse(error[1]!) as { data: { code: string; fieldErrors: Record<string, string[]> | null } };
          return { code: data.code, fieldErrors: data.fieldErrors };
        }
        const next = await Promise.race([reader.read(), quiet]);
        if (next === 'quiet' || next.done) return 'open';
        text += decoder.decode(next.value, { stream: true });
      }
    } finally {
      await reader.cancel().catch(() => {});
    }
  }

  test('a lastEventId above the largest bigint (2^63 - 1), or not a decimal id, is refused with BAD_REQUEST naming the field, not an internal error', async () => {
    const logged = heed.logs.length;
    for (const lastEventId of ['9223372036854775808', '9999999999999999999', '-1', '1e3', ' 1', '1\u0000']) {
      expect(await streamOutcome({ lastEventId }), lastEventId).toEqual({
        code: 'BAD_REQUEST',
        fieldErrors: { lastEventId: [expect.any(String)] },
      });
    }
    expect(heed.logs.slice(logged)).toEqual([]);
  });

  test('the same cursor in a reconnect’s Last-Event-ID header is refused the same way', async () => {
    const logged = heed.logs.length;
    expect(await streamOutcome({}, { 'last-event-id': '9223372036854775808' })).toMatchObject({ code: 'BAD_REQUEST' });
    expect(heed.logs.slice(logged)).toEqual([]);
  });

  test('the largest bigint itself is a valid cursor', async () => {
    expect(await streamOutcome({ lastEventId: '9223372036854775807' })).toBe('open');
  });
});

describe('static files', () => {
  test('a malformed %-escape in a widget path answers 4xx, never 500, and logs nothing', async () => {
    const logged = heed.logs.length;
    for (const path of [
      '/widget-chunks/%E0%A4%A',
      '/widget.js%',
      '/widget-chunks/%',
      '/widget-chunks/%ZZ',
      '/widget-chunks/%00',
      '/widget-chunks/..%2F..%2Fpackage.json',
    ]) {
      const res = await fetch(`${heed.url}${path}`);
      await res.arrayBuffer();
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
    }
    expect(heed.logs.slice(logged)).toEqual([]);
  });
});
