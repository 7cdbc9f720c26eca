import { afterAll, beforeAll, expect, test } from 'vitest';
import { bootstrapOwner } from '../../api/src/operators/bootstrap-owner.ts';
import { createOperatorSession, CONSOLE_COOKIE } from '../../api/src/operators/operator-sessions.ts';
import { hashPassword } from '../../api/src/operators/password.ts';
import { consoleClient, signedInOperator } from '../support/console.ts';
import { TestHeed } from '../support/harness.ts';

/**
 * An operator manages themselves, whatever their role: their own name (what visitors see beside
 * their replies), their password (given the current one; their other sessions end), and
 * "sign out everywhere". The first owner from the environment is named by HEED_ADMIN_NAME once.
 */
let heed: TestHeed;
beforeAll(async () => {
  heed = await TestHeed.start({ workers: 0 });
});
afterAll(() => heed?.stop());

/** A second browser of the same operator: another session and its client. */
async function secondBrowser(operatorId: string) {
  const { token } = await createOperatorSession(heed.services.db, operatorId);
  return consoleClient(heed.url, `${CONSOLE_COOKIE}=${token}`);
}

test('an agent renames themselves; the console and later notices use the new name', async () => {
  const agent = await signedInOperator(heed.services, heed.url, { role: 'agent', name: 'ana' });
  expect(await agent.api.console.profile.rename.mutate({ name: '  Ana   Berg ' })).toEqual({ name: 'Ana Berg' });
  expect(await agent.api.console.auth.me.query()).toMatchObject({ name: 'Ana Berg', role: 'agent' });
  await expect(agent.api.console.profile.rename.mutate({ name: '   ' })).rejects.toThrow();
});

test('a password changes only with the current one; the other browsers are signed out, this one stays', async () => {
  const owner = await signedInOperator(heed.services, heed.url, { role: 'owner' });
  await heed.services.db.operator.update({ where: { id: owner.id }, data: { passwordHash: await hashPassword('the first password') } });
  const other = await secondBrowser(owner.id);

  await expect(owner.api.console.profile.changePassword.mutate({ current: 'not it at all', next: 'a brand new password' })).rejects.toThrow(
    /current password is not right/,
  );
  expect(await other.console.auth.me.query()).not.toBeNull();

  await owner.api.console.profile.changePassword.mutate({ current: 'the first password', next: 'a brand new password' });
  expect(await other.console.auth.me.query()).toBeNull();
  expect(await owner.api.console.auth.me.query()).toMatchObject({ id: owner.id });
  const signIn = (password: string) => consoleClient(heed.url, null).console.auth.signIn.mutate({ email: owner.email, password });
  await expect(signIn('the first password')).rejects.toThrow();
  expect((await signIn('a brand new password')).operator.id).toBe(owner.id);
});

test('"sign out everywhere" ends every session of the operator, this one too', async () => {
  const agent = await signedInOperator(heed.services, heed.url, { role: 'agent' });
  const other = await secondBrowser(agent.id);
  expect(await agent.api.console.profile.signOutEverywhere.mutate()).toEqual({ sessions: 2 });
  expect(await agent.api.console.auth.me.query()).toBeNull();
  expect(await other.console.auth.me.query()).toBeNull();
  await expect(agent.api.console.profile.rename.mutate({ name: 'Too late' })).rejects.toThrow(/Sign in/);
});

test('the first owner from the environment is named HEED_ADMIN_NAME once; a name they set stays', async () => {
  const config = {
    ...heed.config,
    HEED_ADMIN_EMAIL: 'first@shop.example',
    HEED_ADMIN_PASSWORD: 'a long first password',
    HEED_ADMIN_NAME: 'Olive Owner',
  };
  const services = { db: heed.services.db, bus: heed.services.bus, config, log: () => {} };
  await bootstrapOwner(services, { write: () => {} });
  const owner = await heed.services.db.operator.findUniqueOrThrow({ where: { email: 'first@shop.example' } });
  expect(owner).toMatchObject({ name: 'Olive Owner', role: 'owner' });
  await heed.services.db.operator.update({ where: { id: owner.id }, data: { name: 'Olive O.' } });
  await bootstrapOwner(services, { write: () => {} });
  expect((await heed.services.db.operator.findUniqueOrThrow({ where: { id: owner.id } })).name).toBe('Olive O.');
});
