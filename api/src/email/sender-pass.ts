import type { Logger } from '../logging/logger.ts';
import { composeEmail, groupClaims } from './compose.ts';
import type { ComposeDeps } from './composed.ts';
import { messageIdDomain, sendErrorKind, type Mailer } from './mailer.ts';
import { claimDueEmails, failAbandoned, finishEmails, releaseClaims, retryLater, stillOurs, type ClaimedEmail } from './outbox-claims.ts';

/** Rows one pass claims at most; more wait for the next pass. */
const CLAIM_LIMIT = 100;

export interface SenderDeps extends ComposeDeps {
  config: ComposeDeps['config'] & { EMAIL_FROM: string; EMAIL_LEASE_MS: number; EMAIL_RETRY_MS: number };
  mailer: Mailer;
  logger: Logger;
}

/** What one pass did, in counts (a log line's worth). */
export interface SenderPassResult {
  sent: number;
  cancelled: number;
  retrying: number;
  failed: number;
}

/**
 * One pass of the email sender: claims the due rows (outbox-claims.ts), then, one email at a
 * time, renders it from the rows it names (compose.ts), sends it and records the outcome where
 * the rows are still this sender's. A send is aborted at half the lease, so it never outlives
 * its claim; another sender takes a row only once the lease lapsed, and a sent row is never
 * claimed again. Each email carries a Message-ID made from its first row, so the rare repeat (a
 * sender that died after the server took the email, before recording it) is the same message to
 * mail clients. `signal` stops the pass between emails: the send in flight finishes and is
 * recorded, the claims not reached are released at once. Logs ids and counts, never addresses
 * or words.
 */
export async function runSenderPass(s: SenderDeps, signal: AbortSignal): Promise<SenderPassResult> {
  const result: SenderPassResult = { sent: 0, cancelled: 0, retrying: 0, failed: 0 };
  result.failed += await failAbandoned(s.db);
  const groups = groupClaims(await claimDueEmails(s.db, { leaseMs: s.config.EMAIL_LEASE_MS, limit: CLAIM_LIMIT }));
  for (let i = 0; i < groups.length; i++) {
    if (signal.aborted) {
      await releaseClaims(s.db, groups.slice(i).flat());
      break;
    }
    await sendGroup(s, groups[i]!, result);
  }
  return result;
}

async function sendGroup(s: SenderDeps, claimed: ClaimedEmail[], result: SenderPassResult): Promise<void> {
  const group = await stillOurs(s.db, claimed);
  if (group.length === 0) return;
  const composed = await composeEmail(s, group);
  result.cancelled += await finishEmails(s.db, composed.cancelled, 'cancelled');
  const done = new Set([...composed.covered, ...composed.cancelled]);
  await releaseClaims(
    s.db,
    group.filter((r) => !done.has(r)),
  );
  if (!composed.email) return;
  const first = [...composed.covered].sort((a, b) => a.id.localeCompare(b.id))[0]!;
  const ids = composed.covered.map((r) => r.id);
  try {
    await s.mailer.send(
      { ...composed.email, messageId: `<${first.id}@${messageIdDomain(s.config.EMAIL_FROM)}>` },
      AbortSignal.timeout(Math.floor(s.config.EMAIL_LEASE_MS / 2)),
    );
  } catch (err) {
    const error = sendErrorKind(err);
    const failed = await retryLater(s.db, composed.covered, error, s.config.EMAIL_RETRY_MS);
    result.failed += failed;
    result.retrying += composed.covered.length - failed;
    s.logger.warn({ emailIds: ids, kind: first.kind, attempts: first.attempts, sendError: error.kind, failed }, 'email not sent');
    return;
  }
  result.sent += composed.covered.length;
  // a sender whose lease lapsed records nothing here: the rows are another sender's now
  const recorded = await finishEmails(s.db, composed.covered, 'sent');
  if (recorded < composed.covered.length) s.logger.warn({ emailIds: ids, recorded }, 'email sent after its claim lapsed');
}
