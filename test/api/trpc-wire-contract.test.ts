import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { getTRPCErrorShape, tracked, TRPCError, type TRPC_ERROR_CODE_KEY } from '@trpc/server';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { getHTTPStatusCodeFromError, parseConnectionParamsFromString } from '@trpc/server/http';
import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import { EventSource as NodeEventSource } from 'eventsource';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { z } from 'zod';
import * as wire from '../../api/src/shared/trpc-wire.ts';

// pings every 40 ms (read when api/src/trpc/trpc.ts loads), so a quiet stream shows some soon
vi.hoisted(() => {
  process.env.SSE_PING_MS = '40';
});

const { refuse } = await import('../../api/src/errors/refusal.ts');
const { trpcErrorOf } = await import('../../api/src/trpc/refusal.ts');
const { publicProcedure, router, trpcConfig } = await import('../../api/src/trpc/trpc.ts');
const { openStream } = await import('../../widget/src/state/trpc-wire.ts');
type Context = import('../../api/src/trpc/trpc.ts').Context;

/**
 * The contract between Heed's own copy of tRPC's wire protocol (api/src/shared/trpc-wire.ts: the
 * widget's and console's client, the lean mutation and event-stream routes) and tRPC itself.
 * Real procedures on Heed's own tRPC setup (error formatter, refusal middleware, SSE options)
 * are served by tRPC's own fetch handler; what the module writes must be what tRPC writes, and
 * what tRPC writes must read back through the module (and the widget's stream client) as meant.
 * An upgrade of @trpc/server that changes the format fails here, naming the version.
 */

const INSTALLED: string = JSON.parse(
  readFileSync(new URL('../../node_modules/@trpc/server/package.json', import.meta.url), 'utf8'),
).version;
/** The failure message of every check: what differs, in which version. */
const changed = (what: string) =>
  `${what}: @trpc/server ${INSTALLED} differs from api/src/shared/trpc-wire.ts (last verified against ${wire.TRPC_WIRE_VERIFIED}). ` +
  'Follow the change in the wire module (and the lean routes, widget/src/state/trpc-wire.ts), then set TRPC_WIRE_VERIFIED.';

const PING_MS = 40;
const BASE = 'http://heed.test/trpc';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What the last call's procedure and context saw, and the Retry-After it set. */
const seen: { input?: unknown; connectionParams?: unknown; headers: Record<string, string> } = { headers: {} };
const res = {
  headersSent: false,
  setHeader: (name: string, value: string) => void (seen.headers[name.toLowerCase()] = value),
} as unknown as ServerResponse;
const ctx = { res } as unknown as Context;

const burst = () => refuse('too_many_requests', 'send_burst_limit', 'Too many requests. Try again in 2 s.', { retryAfterMs: 1_500 });
const streamsFull = () =>
  refuse('too_many_requests', 'streams_per_visitor_limit', 'Too many requests. Try again in 3 s.', { retryAfterMs: 2_500 });
const originRefused = () => refuse('forbidden', 'origin_not_allowed', 'This page may not use this site.');

const probe = router({
  echo: publicProcedure.input(z.unknown()).query(({ input }) => ({ echoed: input ?? null })),
  save: publicProcedure.input(z.unknown()).mutation(({ input }) => ({ saved: input ?? null })),
  refused: publicProcedure.mutation(() => {
    throw burst();
  }),
  typed: publicProcedure.input(z.strictObject({ n: z.number() })).mutation(({ input }) => input.n),
  broken: publicProcedure.query(() => {
    throw new Error('the database is down');
  }),
  /** tracked, untracked (its id blanked, then restored), tracked; then quiet (pings) and done (`return`) */
  events: publicProcedure.input(z.unknown()).subscription(async function* ({ input }) {
    seen.input = input;
    yield tracked('1', { n: 1 });
    yield { n: 2 };
    yield tracked('2', { n: 3 });
    await sleep(PING_MS * 3.5);
  }),
  /** one untracked event: after a reconnect's Last-Event-ID, its id is restored */
  untracked: publicProcedure.input(z.unknown()).subscription(async function* ({ input }) {
    seen.input = input;
    yield { n: 0 };
  }),
  /** refused while it runs, with a wait: retryable */
  full: publicProcedure.subscription(async function* () {
    yield { n: 1 };
    throw streamsFull();
  }),
  /** refused for good */
  forbidden: publicProcedure.subscription(async function* () {
    yield* [];
    throw originRefused();
  }),
});

/** tRPC's own fetch handler, as `fetch`: no network, the same bytes. */
const trpcFetch = ((input: RequestInfo | URL, init?: RequestInit) =>
  fetchRequestHandler({
    endpoint: '/trpc',
    req: new Request(String(input), init),
    router: probe,
    createContext: ({ info }) => {
      seen.connectionParams = info.connectionParams;
      return ctx;
    },
  })) as typeof fetch;

/** `trpcFetch`, keeping each answer's status, headers and body. */
function recording() {
  const answers: { status: number; headers: [string, string][]; body: string }[] = [];
  const fetcher = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const response = await trpcFetch(input, init);
    answers.push({ status: response.status, headers: [...response.headers], body: await response.clone().text() });
    return response;
  }) as typeof fetch;
  return { answers, fetcher };
}

/** The shape tRPC's formatter gives an error of a call: what the lean routes answer with. */
const shapeOf = (error: TRPCError, path: string, type: 'query' | 'mutation' | 'subscription', input?: unknown) =>
  getTRPCErrorShape({ config: trpcConfig, ctx, error, input, path, type });

afterEach(() => {
  seen.headers = {};
  vi.unstubAllGlobals();
});

describe(`tRPC's wire, as api/src/shared/trpc-wire.ts speaks it (verified against @trpc/server ${wire.TRPC_WIRE_VERIFIED}, installed ${INSTALLED})`, () => {
  test('the installed @trpc/server is the version the wire module was verified against', () => {
    expect(INSTALLED, changed('the version')).toBe(wire.TRPC_WIRE_VERIFIED);
  });

  test('error codes: the JSON-RPC number and HTTP status of every tRPC code', () => {
    expect(Object.keys(wire.TRPC_ERROR_CODES).sort(), changed('the set of error codes')).toEqual(
      Object.keys(TRPC_ERROR_CODES_BY_KEY).sort(),
    );
    for (const [code, [jsonRpc, status]] of Object.entries(wire.TRPC_ERROR_CODES)) {
      expect(jsonRpc, changed(`${code}'s JSON-RPC number`)).toBe(TRPC_ERROR_CODES_BY_KEY[code as TRPC_ERROR_CODE_KEY]);
      expect(status, changed(`${code}'s HTTP status`)).toBe(
        getHTTPStatusCodeFromError(new TRPCError({ code: code as TRPC_ERROR_CODE_KEY })),
      );
    }
  });

  test('no data transformer: inputs and outputs are plain JSON', () => {
    const value = { at: new Date(0), n: 1n };
    expect(trpcConfig.transformer.input.deserialize(value), changed('the input transformer')).toBe(value);
    expect(trpcConfig.transformer.output.serialize(value), changed('the output transformer')).toBe(value);
  });

  test('a query: its URL (with and without input) reads as tRPC reads it; its answer is resultAnswer, status 200', async () => {
    const { answers, fetcher } = recording();
    const input = { text: 'héllo & good+bye #1 ?x=1 👋', list: [1, null, true] };
    expect(await wire.callProcedure(BASE, 'echo', 'query', input, {}, fetcher)).toEqual({ echoed: input });
    expect(await wire.callProcedure(BASE, 'echo', 'query', undefined, {}, fetcher)).toEqual({ echoed: null });
    expect(wire.procedureUrl(BASE, 'echo')).toBe(`${BASE}/echo`);
    for (const [i, data] of [{ echoed: input }, { echoed: null }].entries()) {
      const answer = answers[i]!;
      expect(answer.status, changed('a query’s status')).toBe(200);
      expect(answer.body, changed('a query’s answer')).toBe(JSON.stringify(wire.resultAnswer(data)));
      expect(wire.statusOf(JSON.parse(answer.body))).toBe(200);
      expect(answer.headers, changed('a query’s headers')).toEqual([
        ['content-type', 'application/json'],
        ['vary', wire.TRPC_VARY],
      ]);
    }
  });

  test('a mutation: a POST with a JSON body (or none), answered as a query is', async () => {
    const { answers, fetcher } = recording();
    expect(await wire.callProcedure(BASE, 'save', 'mutation', { a: [1, 'ü'] }, { authorization: 'Bearer x' }, fetcher)).toEqual({
      saved: { a: [1, 'ü'] },
    });
    expect(await wire.callProcedure(BASE, 'save', 'mutation', undefined, {}, fetcher)).toEqual({ saved: null });
    expect(answers.map((a) => a.body)).toEqual([
      JSON.stringify(wire.resultAnswer({ saved: { a: [1, 'ü'] } })),
      JSON.stringify(wire.resultAnswer({ saved: null })),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
  });

  test('a refused call: the error answer, its status (429 with Retry-After), and the ServerError the client reads from it', async () => {
    const { answers, fetcher } = recording();
    const error = await wire.callProcedure(BASE, 'refused', 'mutation', undefined, {}, fetcher).catch((e: unknown) => e);
    const [answer] = answers;
    // what the lean mutation route writes for the same refusal: tRPC's shape, in the module's answer
    const shape = shapeOf(trpcErrorOf(burst()), 'refused', 'mutation');
    expect(answer!.body, changed('an error answer')).toBe(JSON.stringify(wire.errorAnswer(shape)));
    expect(answer!.status, changed('an error’s status')).toBe(429);
    expect(wire.statusOf(JSON.parse(answer!.body)), changed('an error’s status')).toBe(429);
    expect(seen.headers).toEqual({ 'retry-after': '2' });
    const parsed = JSON.parse(answer!.body) as wire.WireAnswer;
    expect(parsed.error?.code, changed('an error’s JSON-RPC code')).toBe(wire.TRPC_ERROR_CODES.TOO_MANY_REQUESTS[0]);
    expect(error).toBeInstanceOf(wire.ServerError);
    expect(error).toMatchObject({
      message: 'Too many requests. Try again in 2 s.',
      data: { code: 'TOO_MANY_REQUESTS', httpStatus: 429, reason: 'send_burst_limit', retryAfterMs: 1_500, path: 'refused' },
    });
  });

  test('an input error (400 with field errors) and an internal error (500, its cause unsaid) read back with their status', async () => {
    const { answers, fetcher } = recording();
    const invalid = await wire.callProcedure(BASE, 'typed', 'mutation', { n: 'one' }, {}, fetcher).catch((e: unknown) => e);
    const broken = await wire.callProcedure(BASE, 'broken', 'query', undefined, {}, fetcher).catch((e: unknown) => e);
    expect(invalid).toMatchObject({
      data: { code: 'BAD_REQUEST', httpStatus: 400, reason: null, fieldErrors: { n: [expect.any(String)] } },
    });
    expect(broken).toMatchObject({
      message: 'Something went wrong on our side. Please try again.',
      data: { code: 'INTERNAL_SERVER_ERROR', httpStatus: 500 },
    });
    for (const answer of answers) {
      const parsed = JSON.parse(answer.body) as wire.WireAnswer;
      expect(wire.statusOf(parsed), changed('an error’s status')).toBe(answer.status);
      expect(JSON.stringify(wire.errorAnswer(parsed.error!)), changed('an error answer')).toBe(answer.body);
      // without data.httpStatus, the status of data.code, as tRPC falls back to
      expect(wire.statusOf({ error: { ...parsed.error, data: { code: parsed.error!.data!.code } } })).toBe(answer.status);
    }
  });

  test('connection params are read as tRPC reads them, and refused where it refuses them', () => {
    for (const raw of ['{"ticket":"a.b.c"}', '{}', 'null', '{"a":1}', '{"a":null}', '[1]', '"x"', '1', '{', '']) {
      const ours = (() => {
        try {
          return wire.readConnectionParams(raw);
        } catch {
          return 'refused';
        }
      })();
      const theirs = (() => {
        try {
          return parseConnectionParamsFromString(raw);
        } catch {
          return 'refused';
        }
      })();
      expect(ours, changed(`connection params ${raw}`)).toEqual(theirs);
    }
  });

  test('streamed JSON lines are asked for as tRPC reads it (which it answers, unbatched, with a 400)', async () => {
    const cases: Record<string, string>[] = [
      {},
      { 'trpc-accept': 'application/jsonl' },
      { accept: 'application/json, application/jsonl' },
      { accept: 'application/jsonlines' },
    ];
    for (const headers of cases) {
      const response = await trpcFetch(wire.procedureUrl(BASE, 'echo', 1), { headers });
      const jsonl = response.status === 400 && (await response.text()).includes('Streaming requests must be batched');
      expect(wire.asksForJsonl(headers), changed(`asking for JSONL with ${JSON.stringify(headers)}`)).toBe(jsonl);
    }
  });

  test('a subscription: its URL and Last-Event-ID read as tRPC reads them', async () => {
    const cases: { input: unknown; header?: string; extra?: string }[] = [
      { input: { lastEventId: null } },
      { input: { lastEventId: '3' }, header: '7' },
      { input: { lastEventId: null }, extra: '&lastEventId=8' },
      { input: { lastEventId: null }, extra: '&Last-Event-Id=9' },
      { input: undefined, header: '5' },
      { input: [1], header: '6' },
    ];
    for (const c of cases) {
      const url = `${wire.procedureUrl(BASE, 'untracked', c.input, { ticket: 't.1' })}${c.extra ?? ''}`;
      const response = await trpcFetch(url, {
        headers: { accept: 'text/event-stream', ...(c.header ? { 'last-event-id': c.header } : {}) },
      });
      const body = await response.text();
      const ours = wire.readSubscriptionRequest(url.slice(url.indexOf('/trpc/')), c.header);
      expect(ours, changed(`reading ${url}`)).not.toBeNull();
      expect(ours!.input, changed(`the input of ${url} (Last-Event-ID ${c.header})`)).toEqual(seen.input);
      expect(ours!.connectionParams, changed(`the connection params of ${url}`)).toEqual(seen.connectionParams);
      // an untracked event after a reconnect restores the id the client resumed from
      expect(body, changed(`the stream of ${url}`)).toBe(
        wire.connectedFrame(trpcConfig.sse!.client!) + wire.dataFrame({ n: 0 }, null, ours!.lastEventId) + wire.RETURN_FRAME,
      );
    }
    expect(wire.readSubscriptionRequest('/trpc/untracked?batch=1&input=%7B%7D', undefined)).toBeNull();
    expect(wire.readSubscriptionRequest('/trpc/untracked?input=%7B', undefined)).toBeNull();
  });

  test('a subscription: its headers and frames (connected, tracked ids, restore-id, ping, return) are what tRPC writes', async () => {
    const response = await trpcFetch(wire.procedureUrl(BASE, 'events', { lastEventId: null }, { ticket: 't.1' }), {
      headers: { accept: 'text/event-stream' },
    });
    expect(response.status).toBe(200);
    expect([...response.headers], changed('a stream’s headers')).toEqual(Object.entries(wire.SSE_HEADERS));
    const body = await response.text();
    const pings = body.split(wire.PING_FRAME).length - 1;
    expect(pings, changed('the ping frame')).toBeGreaterThanOrEqual(2);
    const expected =
      wire.connectedFrame(trpcConfig.sse!.client!) +
      wire.dataFrame({ n: 1 }, '1', null) +
      wire.dataFrame({ n: 2 }, null, '1') +
      wire.dataFrame({ n: 3 }, '2', '1') +
      wire.PING_FRAME.repeat(pings) +
      wire.RETURN_FRAME;
    expect(body, changed('a stream’s frames')).toBe(expected);
    expect(wire.quietLimitOf({ data: JSON.stringify(trpcConfig.sse!.client) })).toBe(PING_MS * 3);
  });

  test('a subscription refused while it runs: the serialized-error frame is the error formatter’s shape', async () => {
    const response = await trpcFetch(wire.procedureUrl(BASE, 'full', {}, {}), { headers: { accept: 'text/event-stream' } });
    const body = await response.text();
    const shape = shapeOf(trpcErrorOf(streamsFull()), 'full', 'subscription', {});
    expect(body, changed('a refused stream')).toBe(
      wire.connectedFrame(trpcConfig.sse!.client!) + wire.dataFrame({ n: 1 }, null, null) + wire.errorFrame(shape),
    );
    expect(shape.data).toMatchObject({
      code: 'TOO_MANY_REQUESTS',
      httpStatus: 429,
      reason: 'streams_per_visitor_limit',
      retryAfterMs: 2_500,
    });
  });

  test('the widget’s stream client reads tRPC’s stream: data with ids, resumes after `return` from its last id, ends on a refusal', async () => {
    // the browser's EventSource, on tRPC's own handler
    vi.stubGlobal(
      'EventSource',
      class extends NodeEventSource {
        constructor(url: string | URL) {
          super(url, { fetch: trpcFetch });
        }
      },
    );
    const received: [unknown, string | undefined][] = [];
    const states: string[] = [];
    const inputs: (string | null)[] = [];
    const stop = openStream(
      BASE,
      'events',
      (last) => (inputs.push(last), { lastEventId: last }),
      async () => ({ ticket: 't.1' }),
      {
        onData: (data, id) => received.push([data, id]),
        onState: (s) => states.push(s),
        onError: (err) => received.push([err, 'error']),
      },
    );
    // the first connection ends with `return`; the client opens another, from the last tracked id
    await vi.waitFor(() => expect(inputs).toEqual([null, '2']), { timeout: 5_000 });
    stop();
    expect(received.slice(0, 3), changed('what the widget reads from a stream')).toEqual([
      [{ n: 1 }, '1'],
      [{ n: 2 }, undefined],
      [{ n: 3 }, '2'],
    ]);
    expect(states.slice(0, 2)).toEqual(['connected', 'connecting']);

    const errors: unknown[] = [];
    const stopRefused = openStream(
      BASE,
      'forbidden',
      () => ({}),
      async () => ({}),
      { onData: () => {}, onState: () => {}, onError: (err) => errors.push(err) },
    );
    await vi.waitFor(() => expect(errors).toHaveLength(1), { timeout: 5_000 });
    stopRefused();
    expect(errors[0]).toBeInstanceOf(wire.ServerError);
    expect(errors[0], changed('a refusal read from a stream')).toMatchObject({
      message: 'This page may not use this site.',
      data: { code: 'FORBIDDEN', httpStatus: 403, reason: 'origin_not_allowed' },
    });
  });
});
