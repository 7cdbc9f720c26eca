import type { Services } from '../services.ts';
import { refuse, retryAfterSeconds } from '../errors/refusal.ts';
import { ME_SELECT, type Me } from './operator-inputs.ts';
import { hashPassword, needsRehash, verifyPassword } from './password.ts';
import { signInThrottleOf } from './sign-in-throttle.ts';

/**
 * Checks an email and password; answers the operator or throws. Every attempt is counted
 * first (`sign_in_throttled`, 429, once over the window). An unknown email, an invitation
 * not yet accepted and a wrong password all answer `bad_credentials` after the same scrypt
 * work, so neither the answer nor its time tells which emails exist. A hash made with
 * weaker parameters than today's is replaced on the way through. A throttled attempt's refusal
 * says when to try again (answered with `Retry-After`).
 */
export async function checkSignIn(
  services: Pick<Services, 'db' | 'redis' | 'config'>,
  input: { email: string; password: string; ip: string },
): Promise<Me> {
  const throttle = signInThrottleOf(services);
  const verdict = await throttle.attempt(input.email, input.ip);
  if (!verdict.ok) {
    const seconds = retryAfterSeconds(verdict.retryAfterMs);
    throw refuse('too_many_requests', 'sign_in_throttled', `Too many sign-in attempts. Try again in ${seconds} s.`, {
      retryAfterMs: verdict.retryAfterMs,
    });
  }
  const row = await services.db.operator.findUnique({ where: { email: input.email }, select: { ...ME_SELECT, passwordHash: true } });
  const ok = await verifyPassword(input.password, row?.passwordHash ?? null);
  if (!row?.passwordHash || !ok) throw refuse('unauthorized', 'bad_credentials', 'Wrong email or password.');
  await throttle.succeeded(input.email, input.ip);
  if (needsRehash(row.passwordHash)) {
    const passwordHash = await hashPassword(input.password);
    await services.db.operator.updateMany({ where: { id: row.id, passwordHash: row.passwordHash }, data: { passwordHash } });
  }
  const { passwordHash: _, ...me } = row;
  return me;
}
