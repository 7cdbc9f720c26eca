import type { ServerResponse } from 'node:http';
import { TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import Fastify from 'fastify';
import { describe, expect, test } from 'vitest';
import { type RefusalKind, refuse } from '../errors/refusal.ts';
import { errorHandler, REFUSAL_STATUS } from '../http/errors.ts';
import type { Logger } from '../logging/logger.ts';
import { appRouter } from './app-router.ts';
import { refusalAsTRPCError, trpcErrorOf } from './refusal.ts';
import { type Context, createCallerFactory, publicProcedure, router } from './trpc.ts';

/** A response's headers, as the mapping sets them. */
function fakeResponse(headersSent = false) {
  const headers: Record<string, string> = {};
  return {
    headers,
    res: {
      headersSent,
      setHeader: (name: string, value: string) => void (headers[name.toLowerCase()] = value),
    } as unknown as ServerResponse,
  };
}

const KINDS = Object.keys(REFUSAL_STATUS) as RefusalKind[];

describe('a refusal on the wire', () => {
  test('every kind gets the same HTTP status from tRPC (through its code) as from the plain routes', () => {
    for (const kind of KINDS) {
      const error = trpcErrorOf(refuse(kind, 'why', 'Because.'));
      expect(getHTTPStatusCodeFromError(error), kind).toBe(REFUSAL_STATUS[kind]);
      expect(error.message).toBe('Because.');
    }
    expect(getHTTPStatusCodeFromError(trpcErrorOf(refuse('too_many_requests', 'rate_limited', 'Slow down.')))).toBe(429);
  });

  test('a refusal that says when to retry puts Retry-After on a response not yet sent, in whole seconds rounded up', () => {
    const open = fakeResponse();
    trpcErrorOf(refuse('too_many_requests', 'send_burst_limit', 'Too many requests.', { retryAfterMs: 1_200 }), open.res);
    expect(open.headers).toEqual({ 'retry-after': '2' });
    const sent = fakeResponse(true);
    trpcErrorOf(refuse('too_many_requests', 'send_burst_limit', 'Too many requests.', { retryAfterMs: 1_200 }), sent.res);
    expect(sent.headers).toEqual({});
    const none = fakeResponse();
    trpcErrorOf(refuse('conflict', 'not_holding', 'Take it over first.'), none.res);
    expect(none.headers).toEqual({});
  });

  test('anything but a refusal is left as it is: an abort stays an abort, a TRPCError stays itself', () => {
    const abort = new DOMException('gone', 'AbortError');
    expect(refusalAsTRPCError(abort)).toBe(abort);
    const own = new TRPCError({ code: 'BAD_REQUEST', message: 'no' });
    expect(refusalAsTRPCError(own)).toBe(own);
    expect(trpcErrorOf(new Error('boom')).code).toBe('INTERNAL_SERVER_ERROR');
  });

  test('every procedure starts with the middleware that answers refusals (it is the base procedure’s first)', () => {
    const first = (publicProcedure as unknown as { _def: { middlewares: unknown[] } })._def.middlewares[0];
    const procedures = Object.entries(appRouter._def.procedures as unknown as Record<string, { _def: { middlewares: unknown[] } }>);
    expect(procedures.length).toBeGreaterThan(20);
    for (const [path, procedure] of procedures) expect(procedure._def.middlewares[0], path).toBe(first);
  });

  test('a procedure’s refusal, from its resolver or a subscription’s iteration, reaches tRPC as its code with Retry-After', async () => {
    const probe = router({
      refused: publicProcedure.query(() => {
        throw refuse('forbidden', 'origin_not_allowed', 'Not from this page.');
      }),
      full: publicProcedure.subscription(async function* () {
        yield 1;
        throw refuse('too_many_requests', 'streams_per_visitor_limit', 'Too many requests. Try again in 3 s.', { retryAfterMs: 2_500 });
      }),
    });
    const { headers, res } = fakeResponse();
    const caller = createCallerFactory(probe)({ res } as unknown as Context);
    const refused = await caller.refused().catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(TRPCError);
    expect(refused).toMatchObject({ code: 'FORBIDDEN', message: 'Not from this page.', cause: { reason: 'origin_not_allowed' } });

    const events: unknown[] = [];
    const failed = await (async () => {
      for await (const event of await caller.full()) events.push(event);
    })().catch((e: unknown) => e);
    expect(events).toEqual([1]);
    expect(failed).toMatchObject({ code: 'TOO_MANY_REQUESTS', cause: { reason: 'streams_per_visitor_limit', retryAfterMs: 2_500 } });
    expect(headers).toEqual({ 'retry-after': '3' });
  });

  test('a plain route’s handler that throws a refusal gets its status, Retry-After and a JSON body', async () => {
    const app = Fastify({ logger: false });
    app.setErrorHandler(errorHandler({} as Logger));
    app.get('/limited', async () => {
      throw refuse('too_many_requests', 'rate_limited', 'Too many requests. Try again in 2 s.', { retryAfterMs: 1_500 });
    });
    app.get('/gone', async () => {
      throw refuse('not_found', null, 'conversation not found');
    });
    const limited = await app.inject({ url: '/limited' });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBe('2');
    expect(limited.headers['content-type']).toMatch(/^application\/json/);
    expect(limited.json()).toEqual({ error: 'rate_limited', message: 'Too many requests. Try again in 2 s.', retryAfterMs: 1_500 });
    const gone = await app.inject({ url: '/gone' });
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual({ error: 'not_found', message: 'conversation not found' });
    await app.close();
  });
});
