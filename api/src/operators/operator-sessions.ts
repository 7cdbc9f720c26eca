import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../db/client.ts';
import type { OperatorRole } from '../db/generated/client.ts';
import { SCOPE_SELECT, siteScopeOf, type SiteScope } from './site-access.ts';

/** The console's session cookie: HttpOnly, SameSite=Strict, Path=/, Secure over https. */
export const CONSOLE_COOKIE = 'heed_console';

/** How long a console session lasts without being used. */
export const SESSION_TTL_MS = 7 * 24 * 3600_000;

/** The signed-in operator, as console procedures see them (`ctx.staff`). */
export interface Staff {
  operatorId: string;
  email: string;
  name: string;
  role: OperatorRole;
  /** the session row's id (the token's hash), to revoke this session */
  sessionId: string;
  /**
   * The sites this operator may act on, read with the session: every console read, whatever
   * its transport, gets its scope from here, so none can be made without one.
   */
  sites: SiteScope;
}

/** Only a hash of the token is stored: a leaked database row cannot be replayed as a cookie. */
export const sessionIdOf = (token: string) => createHash('sha256').update(token).digest('hex');

/** Opens a session for an operator; the returned token goes into the cookie and nowhere else. */
export async function createOperatorSession(db: Db, operatorId: string, now = new Date()): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  await db.operatorSession.create({ data: { id: sessionIdOf(token), operatorId, expiresAt }, select: { id: true } });
  return { token, expiresAt };
}

/**
 * The operator a cookie token signs in, with their site scope, or null when the session is
 * unknown, revoked or expired. A used session slides forward (at most once a minute, so reads
 * stay cheap).
 */
export async function findOperatorSession(db: Db, token: string, now = new Date()): Promise<Staff | null> {
  const id = sessionIdOf(token);
  const row = await db.operatorSession.findUnique({
    where: { id },
    select: {
      expiresAt: true,
      revokedAt: true,
      lastSeenAt: true,
      operator: { select: { id: true, email: true, name: true, ...SCOPE_SELECT } },
    },
  });
  // Prisma reads the operator in a second query: one removed in between comes back null
  if (!row || row.revokedAt || row.expiresAt <= now || !row.operator) return null;
  if (now.getTime() - row.lastSeenAt.getTime() > 60_000) {
    await db.operatorSession.updateMany({
      where: { id, revokedAt: null },
      data: { lastSeenAt: now, expiresAt: new Date(now.getTime() + SESSION_TTL_MS) },
    });
  }
  const { operator } = row;
  return {
    operatorId: operator.id,
    email: operator.email,
    name: operator.name,
    role: operator.role,
    sessionId: id,
    sites: siteScopeOf(operator),
  };
}

/** Ends one session (sign-out) — effective on the next request, on every process. */
export async function revokeOperatorSession(db: Db, sessionId: string, now = new Date()): Promise<void> {
  await db.operatorSession.updateMany({ where: { id: sessionId, revokedAt: null }, data: { revokedAt: now } });
}

/** Reads the console cookie's token from a `Cookie` header. */
export function consoleTokenOf(cookieHeader: string | undefined): string | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === CONSOLE_COOKIE) {
      const value = part.slice(eq + 1).trim();
      return /^[A-Za-z0-9_-]{20,100}$/.test(value) ? value : null;
    }
  }
  return null;
}
