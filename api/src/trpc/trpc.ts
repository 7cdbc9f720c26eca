import { initTRPC, TRPCError } from '@trpc/server';
import type { CreateHTTPContextOptions } from '@trpc/server/adapters/standalone';
import { z } from 'zod';
import { verifyVisitorToken, type VisitorClaims } from '../auth/visitor-token.ts';
import type { Services } from '../services.ts';
import { bearerMatches } from '../http/bearer.ts';

export interface Context {
  services: Services;
  /** the bearer token's claims, when a genuine token came with the request */
  visitor: VisitorClaims | null;
  /** the request carries the operator token (ADMIN_TOKEN) */
  operator: boolean;
}

/**
 * The token travels as `Authorization: Bearer …` on queries and mutations, and as the
 * `token` connection param on SSE subscriptions (EventSource cannot set headers).
 */
export function createContextFactory(services: Services) {
  return ({ req, info }: CreateHTTPContextOptions): Context => {
    const header = req.headers.authorization;
    const token = header?.startsWith('Bearer ') ? header.slice(7) : info.connectionParams?.token;
    const visitor = token ? verifyVisitorToken(services.config.HEED_SECRET, token) : null;
    return { services, visitor, operator: bearerMatches(header, services.config.ADMIN_TOKEN) };
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
    return {
      ...shape,
      message: internal ? 'Something went wrong on our side. Please try again.' : shape.message,
      data: { ...shape.data, stack: undefined, fieldErrors: zod?.fieldErrors ?? null, formErrors: zod?.formErrors ?? null },
    };
  },
});

export const router = t.router;
export const publicProcedure = t.procedure;
export const createCallerFactory = t.createCallerFactory;

/**
 * Every visitor procedure: a valid token for a visitor that still exists is required, and
 * `ctx.visitor` is narrowed. A deleted visitor's token is refused like a forged one, so the
 * widget simply starts a new session.
 */
export const visitorProcedure = t.procedure.use(async ({ ctx, next }) => {
  const claims = ctx.visitor;
  const exists = claims && (await ctx.services.db.visitor.count({ where: { id: claims.visitorId, siteId: claims.siteId } })) > 0;
  if (!claims || !exists) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'A valid visitor token is required. Call session.start first.' });
  return next({ ctx: { ...ctx, visitor: claims } });
});

/**
 * Every operator procedure: the request must carry `Authorization: Bearer $ADMIN_TOKEN`.
 * One shared operator credential until operator accounts exist; unset, nobody gets in.
 */
export const operatorProcedure = t.procedure.use(({ ctx, next }) => {
  if (!ctx.operator) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'The operator token is required.' });
  return next();
});

/** Thrown for ids that do not exist or belong to someone else: the two are indistinguishable on purpose. */
export const notFound = (what: string) => new TRPCError({ code: 'NOT_FOUND', message: `${what} not found` });
