import type { Db } from '../db/client.ts';
import type { Unsubscriber } from './unsubscribe-token.ts';

/**
 * Stops the emails an unsubscribe link names, at once: a visitor's reply emails
 * (`Visitor.emailOptOutAt`, kept from the first time), or an operator's email alerts (their
 * `email` alert setting turns off, as in their profile). What was queued for them is
 * cancelled; the sender would cancel it anyway. Answers who it was, or null when they no
 * longer exist.
 */
export async function unsubscribe(db: Db, who: Unsubscriber): Promise<'visitor' | 'operator' | null> {
  if ('visitorId' in who) {
    const n = await db.$executeRaw`
      UPDATE "Visitor" SET "emailOptOutAt" = COALESCE("emailOptOutAt", now()) WHERE id = ${who.visitorId}::uuid`;
    await db.$executeRaw`
      UPDATE "EmailOutbox" SET status = 'cancelled', payload = NULL, "leaseUntil" = NULL
      WHERE "visitorId" = ${who.visitorId}::uuid AND status = 'pending' AND "leaseUntil" IS NULL`;
    return n > 0 ? 'visitor' : null;
  }
  // one statement: a profile change at the same moment keeps its other channels
  const n = await db.$executeRaw`
    UPDATE "Operator" SET alerts = (CASE WHEN jsonb_typeof(alerts) = 'object' THEN alerts ELSE '{}'::jsonb END) || '{"email": false}'::jsonb
    WHERE id = ${who.operatorId}::uuid`;
  await db.$executeRaw`
    UPDATE "EmailOutbox" SET status = 'cancelled', payload = NULL, "leaseUntil" = NULL
    WHERE "operatorId" = ${who.operatorId}::uuid AND kind = 'operator_alert' AND status = 'pending' AND "leaseUntil" IS NULL`;
  return n > 0 ? 'operator' : null;
}
