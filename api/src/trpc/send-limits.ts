import { experimental_trpcMiddleware } from '@trpc/server';
import type { VisitorClaims } from '../auth/visitor-token.ts';
import { limitSend } from '../limits/guards.ts';
import type { Context } from './trpc.ts';

/**
 * The send limits (limits/guards.ts) as a middleware placed before the input, so invalid sends
 * count too; over a limit, 429 with `Retry-After`.
 * @example send: visitorProcedure.use(limitSends).input(…)
 */
export const limitSends = experimental_trpcMiddleware<{ ctx: Context & { visitor: VisitorClaims } }>().create(async ({ ctx, next }) => {
  await limitSend(ctx);
  return next();
});
