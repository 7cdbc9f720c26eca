import type { Context } from './trpc.ts';
import { overHttps } from '../http/security-headers.ts';
import { CONSOLE_COOKIE, SESSION_TTL_MS } from '../operators/operator-sessions.ts';

/**
 * Whether the console is served over https, so its cookie gets `Secure`: PUBLIC_URL says
 * https, or the request itself came over TLS (directly or per a trusted proxy).
 */
export function consoleOverHttps(ctx: Pick<Context, 'req' | 'services'>): boolean {
  const { PUBLIC_URL, TRUST_PROXY } = ctx.services.config;
  return PUBLIC_URL?.startsWith('https:') === true || overHttps(ctx.req, TRUST_PROXY);
}

/**
 * The session cookie's header value. HttpOnly (no script reads it), SameSite=Strict (no
 * other site's page sends it), Path=/ (the console's API lives at /trpc, beside /admin).
 * @example sessionCookie(token, { secure: true }) // 'heed_console=…; HttpOnly; SameSite=Strict; Path=/; Max-Age=604800; Secure'
 */
export function sessionCookie(token: string, opts: { secure: boolean; maxAgeS?: number }): string {
  const maxAge = opts.maxAgeS ?? Math.floor(SESSION_TTL_MS / 1000);
  return `${CONSOLE_COOKIE}=${token}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${maxAge}${opts.secure ? '; Secure' : ''}`;
}

/** Puts the session's cookie on the response (sign-in, and renewed by `me` as the session slides). */
export function setConsoleCookie(ctx: Pick<Context, 'req' | 'res' | 'services'>, token: string): void {
  if (!ctx.res.headersSent) ctx.res.setHeader('Set-Cookie', sessionCookie(token, { secure: consoleOverHttps(ctx) }));
}

/** Tells the browser to forget the cookie (sign-out). */
export function clearConsoleCookie(ctx: Pick<Context, 'req' | 'res' | 'services'>): void {
  if (!ctx.res.headersSent) ctx.res.setHeader('Set-Cookie', sessionCookie('', { secure: consoleOverHttps(ctx), maxAgeS: 0 }));
}
