import { findOperatorSession } from '../operators/operator-sessions.ts';
import { coversSite, type SiteScope } from '../operators/site-access.ts';
import { requestHostname } from '../http/request-host.ts';
import { overHttps } from '../http/security-headers.ts';
import { notFound, refuse } from '../errors/refusal.ts';
import { type Context, publicProcedure } from './trpc.ts';

/**
 * A console mutation must come from the console's own page: the browser's `Origin` names
 * this API's origin (the cookie is SameSite=Strict already; this is the second lock, so a
 * sibling subdomain or a stale browser cannot ride the session).
 */
export function sameOriginRequest(ctx: Pick<Context, 'origin' | 'req' | 'services'>): boolean {
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
 * The console's own base URL as browsers reach it, ending in `/`: PUBLIC_URL when set (a
 * proxy or a path prefix in front), else this request's scheme and `Host`. Links the
 * console hands out (invitations, the embed snippet) start from it.
 * @example `${consoleBaseUrl(ctx)}widget.js` // 'http://127.0.0.1:3000/widget.js'
 */
export function consoleBaseUrl(ctx: Pick<Context, 'req' | 'services'>): string {
  const { PUBLIC_URL, TRUST_PROXY } = ctx.services.config;
  if (PUBLIC_URL) return PUBLIC_URL;
  const scheme = overHttps(ctx.req, TRUST_PROXY) ? 'https' : 'http';
  try {
    return new URL(`${scheme}://${ctx.req.headers.host ?? 'localhost'}/`).href;
  } catch {
    return `${scheme}://localhost/`;
  }
}

/**
 * The console's signed-out procedures (sign-in, accepting an invitation, sign-out): no
 * session needed, but a mutation must come from the console's own origin all the same, so
 * another site cannot sign a browser in or out behind its back (login CSRF).
 */
export const consoleOriginProcedure = publicProcedure.use(({ ctx, type, next }) => {
  if (type === 'mutation' && !sameOriginRequest(ctx)) {
    throw refuse('forbidden', 'console_origin', 'Console changes must come from the console page itself.');
  }
  return next();
});

/**
 * Every console procedure: a live operator session (cookie `heed_console`) is required and
 * `ctx.staff` is narrowed, with `ctx.sites`, the sites the operator may act on (read with the
 * session: see operators/site-access.ts); a mutation must also come from the console's own origin.
 * Signed out → UNAUTHORIZED `console_signed_out`; wrong origin → FORBIDDEN `console_origin`.
 */
export const consoleProcedure = publicProcedure.use(async ({ ctx, type, next }) => {
  const staff = ctx.consoleToken ? await findOperatorSession(ctx.services.db, ctx.consoleToken) : null;
  if (!staff) throw refuse('unauthorized', 'console_signed_out', 'Sign in to the console first.');
  if (type !== 'query' && type !== 'subscription' && !sameOriginRequest(ctx)) {
    throw refuse('forbidden', 'console_origin', 'Console changes must come from the console page itself.');
  }
  return next({ ctx: { ...ctx, staff, sites: staff.sites } });
});

/** Owner-only console procedures (sites, operators, settings): an agent gets FORBIDDEN `owner_only`. */
export const ownerProcedure = consoleProcedure.use(({ ctx, next }) => {
  if (ctx.staff.role !== 'owner') throw refuse('forbidden', 'owner_only', 'Only an owner may do this.');
  return next();
});

/**
 * Refuses a site outside the operator's sites with NOT_FOUND, exactly as a site that does not
 * exist: an agent of one site cannot learn that another exists.
 * @example assertSiteInScope(ctx, input.siteId)
 */
export function assertSiteInScope(ctx: { sites: SiteScope }, siteId: string): void {
  if (!coversSite(ctx.sites, siteId)) throw notFound('site');
}
