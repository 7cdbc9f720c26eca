import { signingKeys } from '../auth/signing-keys.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { refuse, type Refusal } from '../errors/refusal.ts';
import type { VerifiedIdentity } from '../identity/verify-identity.ts';
import type { SessionVisitor } from '../identity/visitor-session.ts';
import { verifyResumeToken } from './resume-token.ts';

/** A resume link that is forged, altered, expired, or names what no longer exists: refused alike, as a forged visitor token is. */
export const resumeTokenInvalid = (): Refusal =>
  refuse('unauthorized', 'resume_token_invalid', 'This link is not valid any more: open the chat to continue.');

/**
 * The visitor a reply email's link (`#heed-resume=<token>`, resume-token.ts) continues as, and
 * the conversation it opens: the token's own visitor on this site, never another. A visitor the
 * host identified is resumed only with that same user's identity (as `session.start` does: a
 * shared computer after sign-out must not show the previous user's conversations); an anonymous
 * one not on a site that now requires identity.
 * @example const { visitor, conversationId } = await resumeVisitor(db, config, { siteId, token, identity: null });
 */
export async function resumeVisitor(
  db: Db,
  config: Pick<Config, 'HEED_SECRET' | 'HEED_SECRET_PREVIOUS'>,
  input: { siteId: string; token: string; identity: VerifiedIdentity | null; requireIdentity: boolean; timeZone?: string },
): Promise<{ visitor: SessionVisitor; conversationId: string }> {
  const claims = verifyResumeToken(signingKeys(config), input.token);
  if (!claims) throw resumeTokenInvalid();
  const visitor = await db.visitor.findUnique({ where: { id: claims.visitorId }, select: { siteId: true, externalId: true } });
  const owned = await db.conversation.count({ where: { id: claims.conversationId, visitorId: claims.visitorId } });
  if (!visitor || visitor.siteId !== input.siteId || owned === 0) throw resumeTokenInvalid();
  const sameUser = visitor.externalId === null ? !input.requireIdentity : input.identity?.userId === visitor.externalId;
  if (!sameUser) throw refuse('unauthorized', 'identity_required', 'Sign in on this site to continue this conversation.');
  const v = await db.visitor.update({
    where: { id: claims.visitorId },
    data: { lastSeenAt: new Date(), ...(input.timeZone ? { timeZone: input.timeZone } : {}) },
    select: { id: true, timeZone: true, externalId: true },
  });
  return { visitor: { id: v.id, timeZone: v.timeZone, resumed: true, userId: v.externalId }, conversationId: claims.conversationId };
}
