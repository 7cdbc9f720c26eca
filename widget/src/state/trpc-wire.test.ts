/// <reference types="mocha" />
import { expect, waitUntil } from '@open-wc/testing';
import { callProcedure, NetworkError, openStream, ServerError } from './trpc-wire.ts';

/**
 * The widget's wire client in the browser: calls through `fetch`, and the stream's reconnect
 * policy on an EventSource stand-in. The bytes themselves are checked against tRPC's own handler
 * by test/api/trpc-wire-contract.test.ts.
 */

/** An EventSource that records its URL and lets the test emit the server's events. */
class FakeEventSource extends EventTarget {
  static opened: FakeEventSource[] = [];
  onerror: (() => void) | null = null;
  closed = false;
  constructor(readonly url: string) {
    super();
    FakeEventSource.opened.push(this);
  }
  emit(type: string, data: string, lastEventId = '') {
    this.dispatchEvent(new MessageEvent(type, { data, lastEventId }));
  }
  close() {
    this.closed = true;
  }
}

const realEventSource = globalThis.EventSource;
const realFetch = globalThis.fetch;
const latest = () => FakeEventSource.opened.at(-1)!;
const refusal = (data: Record<string, unknown>) => JSON.stringify({ message: 'refused', code: -32600, data });

describe('the widget’s tRPC wire', () => {
  beforeEach(() => {
    FakeEventSource.opened = [];
    globalThis.EventSource = FakeEventSource as unknown as typeof EventSource;
  });
  afterEach(() => {
    globalThis.EventSource = realEventSource;
    globalThis.fetch = realFetch;
  });

  it('calls a query with its input in the URL and a mutation with a JSON body, and reads both answers', async () => {
    const requests: [string, RequestInit | undefined][] = [];
    globalThis.fetch = (async (url: string, init?: RequestInit) => {
      requests.push([url, init]);
      return new Response(
        JSON.stringify(
          url.includes('fail')
            ? { error: { message: 'No.', code: -32003, data: { code: 'FORBIDDEN', httpStatus: 403, reason: 'owner_only' } } }
            : { result: { data: 'ok' } },
        ),
      );
    }) as typeof fetch;
    expect(await callProcedure('/trpc', 'conversation.get', 'query', { conversationId: 'a b' }, { authorization: 'Bearer t' })).to.equal(
      'ok',
    );
    expect(await callProcedure('/trpc', 'message.send', 'mutation', { content: 'hi' }, {})).to.equal('ok');
    expect(requests[0]![0]).to.equal('/trpc/conversation.get?input=%7B%22conversationId%22%3A%22a%20b%22%7D');
    expect(requests[0]![1]).to.deep.equal({ headers: { authorization: 'Bearer t' } });
    expect(requests[1]).to.deep.equal([
      '/trpc/message.send',
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"content":"hi"}' },
    ]);
    const refused = await callProcedure('/trpc', 'fail', 'mutation', undefined, {}).catch((e: unknown) => e);
    expect(refused).to.be.instanceOf(ServerError);
    expect((refused as ServerError).data.reason).to.equal('owner_only');
    globalThis.fetch = (async () => new Response('<html>502 Bad Gateway</html>', { status: 502 })) as typeof fetch;
    expect(await callProcedure('/trpc', 'x', 'query', undefined, {}).catch((e: unknown) => e)).to.be.instanceOf(NetworkError);
  });

  it('opens the stream with its input and fresh params, and resumes from the last tracked id on reconnect', async () => {
    let tickets = 0;
    const data: [unknown, string | undefined][] = [];
    const stop = openStream(
      '/trpc',
      'events.subscribe',
      (last) => ({ lastEventId: last }),
      async () => ({ ticket: `t${++tickets}` }),
      {
        onData: (d, id) => data.push([d, id]),
        onState: () => {},
        onError: () => {},
      },
    );
    await waitUntil(() => FakeEventSource.opened.length === 1);
    expect(latest().url).to.equal(
      '/trpc/events.subscribe?input=%7B%22lastEventId%22%3Anull%7D&connectionParams=%7B%22ticket%22%3A%22t1%22%7D',
    );
    latest().emit('connected', '{"reconnectAfterInactivityMs":30000}');
    latest().emit('message', '{"n":1}', '41');
    latest().emit('message', '{"n":2}');
    latest().emit('return', '');
    await waitUntil(() => FakeEventSource.opened.length === 2, 'reconnects after return', { timeout: 3_000 });
    expect(latest().url).to.equal(
      '/trpc/events.subscribe?input=%7B%22lastEventId%22%3A%2241%22%7D&connectionParams=%7B%22ticket%22%3A%22t2%22%7D',
    );
    expect(data).to.deep.equal([
      [{ n: 1 }, '41'],
      [{ n: 2 }, undefined],
    ]);
    stop();
    expect(latest().closed).to.be.true;
  });

  it('reconnects after a refusal a new connection can get past (an expired ticket, 429, 5xx) and ends on any other', async () => {
    const cases: [Record<string, unknown>, boolean][] = [
      [{ code: 'UNAUTHORIZED', httpStatus: 401, reason: 'stream_ticket_invalid' }, true],
      [{ code: 'TOO_MANY_REQUESTS', httpStatus: 429, reason: 'streams_per_visitor_limit' }, true],
      [{ code: 'INTERNAL_SERVER_ERROR', httpStatus: 500 }, true],
      [{ code: 'SERVICE_UNAVAILABLE', httpStatus: 503 }, true],
      [{ code: 'FORBIDDEN', httpStatus: 403, reason: 'origin_not_allowed' }, false],
      [{ code: 'NOT_IMPLEMENTED', httpStatus: 501 }, false],
    ];
    for (const [data, retried] of cases) {
      FakeEventSource.opened = [];
      const errors: unknown[] = [];
      const states: string[] = [];
      const stop = openStream(
        '/trpc',
        'events.subscribe',
        () => ({}),
        async () => ({}),
        { onData: () => {}, onState: (s) => states.push(s), onError: (e) => errors.push(e) },
      );
      await waitUntil(() => FakeEventSource.opened.length === 1);
      latest().emit('serialized-error', refusal(data));
      await waitUntil(() => errors.length > 0 || states.includes('connecting'), `${data.code} handled`);
      stop();
      expect(states.includes('connecting'), String(data.code)).to.equal(retried);
      expect(errors.length, String(data.code)).to.equal(retried ? 0 : 1);
      if (!retried) expect((errors[0] as ServerError).data).to.deep.equal(data);
    }
  });
});
