import type { Config } from '../config.ts';
import type { DbLike } from '../db/types.ts';
import { inviteHashOf } from '../operators/invites.ts';
import { cancelAll, footer, type ComposeDeps, type Composed } from './composed.ts';
import { emailBaseUrl, unsubscribeOf } from './email-links.ts';
import { enqueueEmails } from './enqueue.ts';
import type { ClaimedEmail } from './outbox-claims.ts';

/**
 * Queues the invitation email of a fresh invitation, when this server sends email
 * (SMTP_URL); answers whether it did. The token rides in the row's payload only until the row
 * is done (sent, cancelled or failed clear it); a later invitation of the same person replaces
 * the token, so this row is then cancelled at send time instead of mailing a dead link.
 * @example const emailed = await queueInvitation(db, config, { operatorId, email, token, consoleUrl });
 */
export async function queueInvitation(
  db: DbLike,
  config: Pick<Config, 'SMTP_URL'>,
  invite: { operatorId: string; email: string; token: string; consoleUrl: string },
): Promise<boolean> {
  if (!config.SMTP_URL) return false;
  await enqueueEmails(db, [
    {
      kind: 'invitation',
      dedupeKey: `invitation:${inviteHashOf(invite.token)}`,
      recipient: invite.email,
      operatorId: invite.operatorId,
      dueAt: new Date(),
      payload: { token: invite.token, consoleUrl: invite.consoleUrl },
    },
  ]);
  return true;
}

/** The invitation email, if the invitation is still the pending one its token names. */
export async function composeInvitation(deps: ComposeDeps, row: ClaimedEmail): Promise<Composed> {
  const token = typeof row.payload?.token === 'string' ? row.payload.token : null;
  const consoleUrl = typeof row.payload?.consoleUrl === 'string' ? row.payload.consoleUrl : null;
  if (!token || !consoleUrl || !row.operatorId) return cancelAll([row]);
  const invitee = await deps.db.operator.findUnique({
    where: { id: row.operatorId },
    select: { email: true, name: true, role: true, passwordHash: true, inviteTokenHash: true, inviteExpiresAt: true },
  });
  const now = deps.now ?? new Date();
  const pending =
    invitee && invitee.passwordHash === null && invitee.inviteTokenHash === inviteHashOf(token) && (invitee.inviteExpiresAt ?? now) > now;
  if (!invitee || !pending) return cancelAll([row]);
  const link = `${consoleUrl}admin/#/invite/${token}`;
  const unsubscribe = unsubscribeOf(emailBaseUrl(deps.config), deps.keys, { operatorId: row.operatorId });
  const role =
    invitee.role === 'owner' ? 'an owner (sites, operators and settings)' : 'an agent (answering the conversations of your sites)';
  const text =
    `Hello ${invitee.name},\n\n` +
    `You are invited to Heed's console as ${role}.\n\n` +
    `Accept the invitation and choose your password here (the link works once, until ${invitee.inviteExpiresAt?.toUTCString()}):\n${link}\n\n` +
    'If you did not expect this invitation, ignore this email.' +
    footer('You get this email because an owner invited this address to Heed.', unsubscribe.url);
  return {
    email: { to: invitee.email, subject: 'Your invitation to Heed', text, headers: unsubscribe.headers },
    covered: [row],
    cancelled: [],
  };
}
