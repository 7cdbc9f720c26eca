import { findOperatorSession } from '../operators/operator-sessions.ts';
import { requestHostname } from '../http/request-host.ts';
import { refuse } from './refusal.ts';
import { type Context, publicProcedure } from './trpc.ts';

/**
 * A console mutation must come from the console's own page: the browser's `Origin` names
 * this API's origin (the cookie is SameSite=Strict already; this is the second lock, so a
 * sibling subdomain or a stale browser cannot ride the session).
 */
export function sameOriginRequest(ctx: Context): boolean {
  if (!ctx.origin) return false;
  try {
    const origin = new URL(ctx.origin);
    const host = ctx.req.headers.host;
    if (!host) return false;
    const publicUrl = ctx.services.config.PUBLIC_URL;
    if (publicUrl && new URL(publicUrl).origin === origin.origin) return true;
    return origin.host === host && origin.hostname === requestHostname(ctx.req, '');
  } catch {
    return false;
  }
}

/**
 * Every console procedure: a live operator session (cookie `heed_console`) is required and
 * `ctx.staff` is narrowed; a mutation must also come from the console's own origin.
 * Signed out → UNAUTHORIZED `console_signed_out`; wrong origin → FORBIDDEN `console_origin`.
 */
export const consoleProcedure = publicProcedure.use(async ({ ctx, type, next }) => {
  const staff = ctx.consoleToken ? await findOperatorSession(ctx.services.db, ctx.consoleToken) : null;
  if (!staff) throw refuse('UNAUTHORIZED', 'console_signed_out', 'Sign in to the console first.');
  if (type !== 'query' && type !== 'subscription' && !sameOriginRequest(ctx)) {
    throw refuse('FORBIDDEN', 'console_origin', 'Console changes must come from the console page itself.');
  }
  return next({ ctx: { ...ctx, staff } });
});

/** Owner-only console procedures (sites, operators, settings): an agent gets FORBIDDEN `owner_only`. */
export const ownerProcedure = consoleProcedure.use(({ ctx, next }) => {
  if (ctx.staff.role !== 'owner') throw refuse('FORBIDDEN', 'owner_only', 'Only an owner may do this.');
  return next();
});
