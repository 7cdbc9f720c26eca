import { initTRPC } from '@trpc/server';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NodeHTTPCreateContextFnOptions } from '@trpc/server/adapters/node-http';
import { z } from 'zod';
import { signingKeys } from '../auth/signing-keys.ts';
import { verifyStreamTicket } from '../auth/stream-ticket.ts';
import { verifyVisitorToken, type VisitorClaims } from '../auth/visitor-token.ts';
import type { Services } from '../services.ts';
import { bearerMatches } from '../http/bearer.ts';
import { clientAddressKey } from '../limits/address-key.ts';
import { requestIdOf } from '../http/request-id.ts';
import { originAllowed } from '../sites/origin-rule.ts';
import { wellFormed } from '../db/well-formed.ts';
import { refuse } from '../errors/refusal.ts';
import { streamTicketInvalid, visitorTokenInvalid } from '../auth/visitor-refusals.ts';
import { refusalAsTRPCError, refusalOf } from './refusal.ts';
import { consoleTokenOf } from '../operators/operator-sessions.ts';

export interface Context {
  services: Services;
  /** the bearer token's claims, when a genuine token came with the request */
  visitor: VisitorClaims | null;
  /** the stream ticket's claims (event stream only), when a genuine ticket came with it */
  streamVisitor: VisitorClaims | null;
  /** the request carries the operator token (ADMIN_TOKEN) */
  operator: boolean;
  /** the console session cookie's token, when one came with the request (checked by consoleProcedure) */
  consoleToken: string | null;
  /** the browser page the request comes from (`Origin`), if any */
  origin: string | null;
  /**
   * a keyed hash of the client's address (limits/address-key.ts; X-Forwarded-For only behind
   * TRUST_PROXY proxies): per-address limits count it, and the address itself is kept nowhere
   */
  ip: string;
  /** this request's id, as answered in `X-Request-Id`; name it in log lines */
  requestId: string;
  req: IncomingMessage;
  res: ServerResponse;
}

/**
 * The visitor token travels only as `Authorization: Bearer …` (queries and mutations).
 * The event stream (EventSource cannot set headers) carries a short-lived stream ticket
 * as its `ticket` connection param instead, so no long-lived credential lands in a URL.
 */
/** What {@link createContextFactory} makes: a request's context from Node's request and response. */
export type CreateContext = ReturnType<typeof createContextFactory>;

export function createContextFactory(services: Services) {
  const keys = signingKeys(services.config);
  // only the connection params of tRPC's request info are read, so the lean routes (http/mutation-route.ts, http/event-stream-route.ts) can pass just those
  return ({
    req,
    res,
    info,
  }: Pick<NodeHTTPCreateContextFnOptions<IncomingMessage, ServerResponse>, 'req' | 'res'> & {
    info: { connectionParams: Record<string, string | undefined> | null };
  }): Context => {
    const header = req.headers.authorization;
    const token = header?.startsWith('Bearer ') ? header.slice(7) : null;
    return {
      services,
      visitor: token ? verifyVisitorToken(keys, token) : null,
      streamVisitor: verifyStreamTicket(keys, info.connectionParams?.ticket),
      operator: bearerMatches(header, services.config.ADMIN_TOKEN),
      consoleToken: consoleTokenOf(req.headers.cookie),
      origin: typeof req.headers.origin === 'string' ? req.headers.origin : null,
      ip: clientAddressKey(req, services.config),
      requestId: requestIdOf(req),
      req,
      res,
    };
  };
}

const t = initTRPC.context<Context>().create({
  sse: {
    ping: { enabled: true, intervalMs: Number(process.env.SSE_PING_MS ?? 10_000) },
    client: { reconnectAfterInactivityMs: Number(process.env.SSE_PING_MS ?? 10_000) * 3 },
  },
  errorFormatter({ shape, error }) {
    // Input errors name the offending fields; an internal error says nothing of its cause
    // (database and provider messages go to the log, never to clients).
    const zod = error.code === 'BAD_REQUEST' && error.cause instanceof z.ZodError ? z.flattenError(error.cause) : null;
    const internal = error.code === 'INTERNAL_SERVER_ERROR';
    const refusal = refusalOf(error);
    return {
      ...shape,
      message: internal ? 'Something went wrong on our side. Please try again.' : shape.message,
      data: {
        ...shape.data,
        stack: undefined,
        fieldErrors: zod?.fieldErrors ?? null,
        formErrors: zod?.formErrors ?? null,
        reason: refusal?.reason ?? null,
        retryAfterMs: refusal?.retryAfterMs ?? null,
      },
    };
  },
});

/**
 * The first middleware of every procedure: a domain refusal (errors/refusal.ts) thrown anywhere
 * after it (a middleware, the resolver, a subscription's iteration) is answered as tRPC's error
 * with its code and `Retry-After` (refusal.ts), on tRPC's handler and the lean mutation route alike.
 */
const answerRefusals = t.middleware(async ({ ctx, type, next }) => {
  const result = await next();
  if (!result.ok) {
    const error = refusalAsTRPCError(result.error, ctx.res);
    if (error !== result.error) throw error;
    return result;
  }
  if (type === 'subscription' && isAsyncIterable(result.data)) return { ...result, data: answeringRefusals(result.data, ctx.res) };
  return result;
});

const isAsyncIterable = (value: unknown): value is AsyncIterable<unknown> =>
  typeof value === 'object' && value !== null && Symbol.asyncIterator in value;

/** A subscription's events as they come; a refusal thrown while it runs (a full stream slot) ends it as tRPC's error. */
async function* answeringRefusals(events: AsyncIterable<unknown>, res: ServerResponse): AsyncGenerator<unknown, unknown> {
  try {
    return yield* events;
  } catch (err) {
    throw refusalAsTRPCError(err, res);
  }
}

/**
 * Every procedure's base (the others below start from it): refusals answered (above), and the
 * raw input's strings made well-formed (every lone surrogate becomes U+FFFD, db/well-formed.ts)
 * before any schema reads them, on tRPC's handler and the lean routes alike, since both run the
 * procedure's middlewares. One place, so no new input can miss it.
 */
export const publicProcedure = t.procedure
  .use(answerRefusals)
  .use(({ getRawInput, next }) => next({ getRawInput: async () => wellFormed(await getRawInput()) }));

export const router = t.router;
/** For procedure bases defined beside this file (console-procedure.ts). */
export const middleware = t.middleware;
export const createCallerFactory = t.createCallerFactory;

/**
 * Refuses a browser page whose origin the site does not list (403 `origin_not_allowed`).
 * Every procedure that acts for a site's visitor calls it: session.start, every visitor
 * procedure and every event-stream connection.
 */
export async function assertOriginAllowed(ctx: Context, siteId: string): Promise<void> {
  const site = await ctx.services.sites.byId(siteId);
  if (site && !originAllowed(site.allowedOrigins, ctx.origin)) {
    throw refuse(
      'forbidden',
      'origin_not_allowed',
      `The page's origin ${ctx.origin} is not among this site's allowed origins: add it in the site's settings.`,
    );
  }
}

async function visitorExists(ctx: Context, claims: VisitorClaims | null): Promise<boolean> {
  return !!claims && (await ctx.services.db.visitor.count({ where: { id: claims.visitorId, siteId: claims.siteId } })) > 0;
}

/**
 * Every visitor procedure: a valid token for a visitor that still exists is required, and
 * `ctx.visitor` is narrowed. A deleted visitor's token is refused like a forged one, so the
 * widget simply starts a new session.
 */
export const visitorProcedure = publicProcedure.use(async ({ ctx, next }) => {
  const claims = ctx.visitor;
  if (!claims || !(await visitorExists(ctx, claims))) throw visitorTokenInvalid();
  await assertOriginAllowed(ctx, claims.siteId);
  return next({ ctx: { ...ctx, visitor: claims } });
});

/**
 * A visitor procedure that proves the visitor still exists in its own statement instead of a
 * round trip before it, and refuses with `visitorTokenInvalid()` when it does not: only
 * `message.send`, the hottest path (send-group.ts looks the visitor up only when the
 * conversation is not theirs). The token's signature and the page's origin are checked here.
 */
export const signedVisitorProcedure = publicProcedure.use(async ({ ctx, next }) => {
  const claims = ctx.visitor;
  if (!claims) throw visitorTokenInvalid();
  await assertOriginAllowed(ctx, claims.siteId);
  return next({ ctx: { ...ctx, visitor: claims } });
});

/**
 * Who an event stream is for: a valid stream ticket (`events.ticket`) for a visitor that
 * still exists, from a page the site allows. An expired ticket is `stream_ticket_invalid`:
 * the widget fetches a new one. Called by `streamProcedure` and by the lean SSE route
 * (http/event-stream-route.ts), which serves `events.subscribe` over HTTP.
 * @example const visitor = await streamVisitorOf(ctx);
 */
export async function streamVisitorOf(ctx: Context): Promise<VisitorClaims> {
  const claims = ctx.streamVisitor;
  if (!claims || !(await visitorExists(ctx, claims))) {
    throw streamTicketInvalid();
  }
  await assertOriginAllowed(ctx, claims.siteId);
  return claims;
}

/** The event stream: `streamVisitorOf` decides, and `ctx.visitor` is narrowed. */
export const streamProcedure = publicProcedure.use(async ({ ctx, next }) => next({ ctx: { ...ctx, visitor: await streamVisitorOf(ctx) } }));

/** tRPC's runtime config (error formatter, SSE ping and client options), for the lean SSE route to answer as tRPC would. */
export const trpcConfig = t._config;

/**
 * Every operator procedure: the request must carry `Authorization: Bearer $ADMIN_TOKEN`.
 * One shared operator credential until operator accounts exist; unset, nobody gets in.
 */
export const operatorProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.operator) throw refuse('unauthorized', null, 'The operator token is required.');
  return next();
});
