import type { Db } from '../db/client.ts';
import type { VisitorClaims } from '../auth/visitor-token.ts';
import type { VerifiedIdentity } from './verify-identity.ts';
import { arrivalData, type VisitorArrival } from '../visitors/page-fields.ts';

export interface SessionVisitor {
  id: string;
  timeZone: string;
  /** the visitor of the presented token was resumed (not a new or another visitor) */
  resumed: boolean;
  /** the verified user, when the session is identified */
  userId: string | null;
}

const SELECT = { id: true, timeZone: true, externalId: true } as const;

/**
 * The visitor a session continues with:
 * - identified: the user's own visitor row (one per site and user id, created on first
 *   sight), on every browser and device. An anonymous visitor's conversations from the
 *   presented token **join the user's** (so the chat a visitor started before signing in
 *   stays theirs); another user's token is never merged.
 * - anonymous: the token's visitor if it is anonymous too, else a new one. The token of an
 *   identified visitor is not resumed without the identity (a shared computer after
 *   sign-out must not show the previous user's conversations).
 *
 * `arrival` (referrer, language, user agent) is stored on the row either way; what it does
 * not carry stays as it was. Signed `attributes` replace the stored ones; none signed keeps them.
 */
export async function sessionVisitor(
  db: Db,
  input: { siteId: string; claims: VisitorClaims | null; identity: VerifiedIdentity | null; timeZone?: string; arrival?: VisitorArrival },
): Promise<SessionVisitor> {
  const now = new Date();
  const tz = input.timeZone ? { timeZone: input.timeZone } : {};
  const arrived = arrivalData(input.arrival);
  const presented =
    input.claims && input.claims.siteId === input.siteId
      ? await db.visitor.findUnique({ where: { id: input.claims.visitorId }, select: SELECT })
      : null;

  if (!input.identity) {
    if (presented && presented.externalId === null) {
      const v = await db.visitor.update({ where: { id: presented.id }, data: { lastSeenAt: now, ...tz, ...arrived }, select: SELECT });
      return { id: v.id, timeZone: v.timeZone, resumed: true, userId: null };
    }
    const v = await db.visitor.create({ data: { siteId: input.siteId, timeZone: input.timeZone ?? 'UTC', ...arrived }, select: SELECT });
    return { id: v.id, timeZone: v.timeZone, resumed: false, userId: null };
  }

  const { userId, name, email, attributes } = input.identity;
  const profile = {
    ...(name !== null ? { name } : {}),
    ...(email !== null ? { email } : {}),
    ...(attributes !== null ? { attributes } : {}),
    ...arrived,
  };
  const user = await db.visitor.upsert({
    where: { siteId_externalId: { siteId: input.siteId, externalId: userId } },
    create: {
      siteId: input.siteId,
      externalId: userId,
      timeZone: input.timeZone ?? presented?.timeZone ?? 'UTC',
      identifiedAt: now,
      ...profile,
    },
    update: { lastSeenAt: now, identifiedAt: now, ...tz, ...profile },
    select: SELECT,
  });
  if (presented && presented.externalId === null && presented.id !== user.id) await adoptConversations(db, presented.id, user.id);
  return { id: user.id, timeZone: user.timeZone, resumed: presented?.id === user.id, userId };
}

/**
 * Moves every conversation (and its messages' owner, which scopes recall) of an anonymous
 * visitor to the identified one, in one transaction. The anonymous visitor row stays
 * (empty): a run in flight may still append its events there.
 */
export async function adoptConversations(db: Db, fromVisitorId: string, toVisitorId: string): Promise<number> {
  const [moved] = await db.$transaction([
    db.conversation.updateMany({ where: { visitorId: fromVisitorId }, data: { visitorId: toVisitorId } }),
    db.message.updateMany({ where: { visitorId: fromVisitorId }, data: { visitorId: toVisitorId } }),
  ]);
  return moved.count;
}
