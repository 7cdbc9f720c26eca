import { initTRPC, TRPCError } from '@trpc/server';
import type { CreateHTTPContextOptions } from '@trpc/server/adapters/standalone';
import { z } from 'zod';
import { verifyVisitorToken, type VisitorClaims } from '../auth/visitor-token.ts';
import type { Services } from '../services.ts';

export interface Context {
  services: Services;
  /** the bearer token's claims, when a genuine token came with the request */
  visitor: VisitorClaims | null;
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
    return { services, visitor };
  };
}

const t = initTRPC.context<Context>().create({
  sse: {
    ping: { enabled: true, intervalMs: Number(process.env.SSE_PING_MS ?? 10_000) },
    client: { reconnectAfterInactivityMs: Number(process.env.SSE_PING_MS ?? 10_000) * 3 },
  },
  errorFormatter({ shape, error }) {
    // Input errors list the offending fields; nothing else of the error leaves the server.
    const fieldErrors = error.code === 'BAD_REQUEST' && error.cause instanceof z.ZodError ? z.flattenError(error.cause).fieldErrors : null;
    return { ...shape, data: { ...shape.data, stack: undefined, fieldErrors } };
  },
});

export const router = t.router;
export const publicProcedure = t.procedure;
export const createCallerFactory = t.createCallerFactory;

/** Every visitor procedure: a valid token is required, and `ctx.visitor` is narrowed. */
export const visitorProcedure = t.procedure.use(({ ctx, next }) => {
  if (!ctx.visitor) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'A valid visitor token is required. Call session.start first.' });
  return next({ ctx: { ...ctx, visitor: ctx.visitor } });
});

/** Thrown for ids that do not exist or belong to someone else: the two are indistinguishable on purpose. */
export const notFound = (what: string) => new TRPCError({ code: 'NOT_FOUND', message: `${what} not found` });
