import { randomBytes } from 'node:crypto';
import type { Services } from '../services.ts';
import { accessChanged } from './access-changed.ts';
import { operatorEmail } from './operator-inputs.ts';
import { hashPassword } from './password.ts';
import { upsertOwner } from './upsert-owner.ts';

/** The owner `npm start` makes in development when there is no operator at all. */
export const DEV_OWNER_EMAIL = 'admin@localhost';

/**
 * The first console owner, at API start-up:
 * - `HEED_ADMIN_EMAIL` + `HEED_ADMIN_PASSWORD` set: that owner exists with that password
 *   (created, named `HEED_ADMIN_NAME`, or updated when the password changed).
 * - neither, no operator at all, development: `admin@localhost` with a random password,
 *   printed once to `out` (stdout) and never again: the next start finds an operator.
 * - neither, no operator, production: one log line saying how to create one.
 * Two processes starting at once create one owner (the email is unique); only the creator prints.
 * @example await bootstrapOwner(services)
 */
export async function bootstrapOwner(
  services: Pick<Services, 'db' | 'bus' | 'config' | 'log'>,
  out: { write(text: string): unknown } = process.stdout,
): Promise<void> {
  const { db, config } = services;
  if (config.HEED_ADMIN_EMAIL && config.HEED_ADMIN_PASSWORD) {
    const email = operatorEmail.parse(config.HEED_ADMIN_EMAIL);
    // the name only names a new owner: one they set themselves in the console stays
    const initialName = config.HEED_ADMIN_NAME;
    const { outcome, signedOut } = await upsertOwner(db, { email, password: config.HEED_ADMIN_PASSWORD, initialName });
    if (outcome !== 'unchanged') services.log(`console owner from HEED_ADMIN_EMAIL ${outcome}`);
    if (signedOut) await accessChanged(services.bus, [signedOut]);
    return;
  }
  if ((await db.operator.count()) > 0) return;
  if (config.NODE_ENV === 'production') {
    services.log(
      'no console operator yet: create the first owner with `npm run admin:create -- --email you@example.com`, or set HEED_ADMIN_EMAIL and HEED_ADMIN_PASSWORD',
    );
    return;
  }
  if (config.NODE_ENV !== 'development') return;
  const password = randomBytes(18).toString('base64url');
  try {
    await db.operator.create({
      data: { email: DEV_OWNER_EMAIL, name: 'Admin', role: 'owner', passwordHash: await hashPassword(password) },
      select: { id: true },
    });
  } catch (err) {
    if ((err as { code?: string }).code === 'P2002') return; // another process made it first, and printed its password
    throw err;
  }
  out.write(`[heed] console owner created: sign in at /admin as ${DEV_OWNER_EMAIL} with password ${password} (shown only this once)\n`);
}
