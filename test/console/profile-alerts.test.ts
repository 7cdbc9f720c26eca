import { afterAll, beforeAll, expect, test } from 'vitest';
import { consoleClient, signedInOperator } from '../support/console.ts';
import { TestHeed } from '../support/harness.ts';
import { rawCall } from './raw-call.ts';

/**
 * An operator's own alert settings (console.profile.alerts / setAlerts): the defaults until they
 * choose, a change of one channel keeps the others, one operator's choice never touches
 * another's, and input that is not a known channel with a yes or no is refused, changing nothing.
 * Email is offered only where the server can send it (SMTP_URL).
 */
let heed: TestHeed;
beforeAll(async () => {
  heed = await TestHeed.start({ workers: 0 });
});
afterAll(() => heed?.stop());

const stored = async (operatorId: string) =>
  (await heed.services.db.operator.findUniqueOrThrow({ where: { id: operatorId }, select: { alerts: true } })).alerts;

test('an operator reads the defaults, changes one channel at a time, and the others stay', async () => {
  const agent = await signedInOperator(heed.services, heed.url, { role: 'agent' });
  expect(await agent.api.console.profile.alerts.query()).toEqual({ notify: true, sound: false, email: true, emailEnabled: false });
  expect(await agent.api.console.profile.setAlerts.mutate({ sound: true })).toEqual({
    notify: true,
    sound: true,
    email: true,
    emailEnabled: false,
  });
  await agent.api.console.profile.setAlerts.mutate({ email: false, notify: false });
  expect(await agent.api.console.profile.alerts.query()).toEqual({ notify: false, sound: true, email: false, emailEnabled: false });
  // what the email worker reads: the stored object holds what was chosen
  expect(await stored(agent.id)).toEqual({ sound: true, email: false, notify: false });
});

test('one operator’s settings never change another’s', async () => {
  const ana = await signedInOperator(heed.services, heed.url, { role: 'agent' });
  const olive = await signedInOperator(heed.services, heed.url, { role: 'owner' });
  await olive.api.console.profile.setAlerts.mutate({ sound: true, email: false });
  await ana.api.console.profile.setAlerts.mutate({ notify: false });
  expect(await olive.api.console.profile.alerts.query()).toMatchObject({ notify: true, sound: true, email: false });
  expect(await ana.api.console.profile.alerts.query()).toMatchObject({ notify: false, sound: false, email: true });
  expect(await stored(olive.id)).toEqual({ sound: true, email: false });
});

test('input other than known channels with a yes or no is refused, and nothing changes', async () => {
  const agent = await signedInOperator(heed.services, heed.url, { role: 'agent' });
  await agent.api.console.profile.setAlerts.mutate({ sound: true });
  const headers = { cookie: agent.cookie, origin: heed.url };
  for (const input of [
    { sound: 'yes' },
    { notify: 1 },
    { email: null },
    { pager: true },
    { operatorId: agent.id, sound: false },
    'sound',
    [],
  ]) {
    const answer = await rawCall(heed.url, 'console.profile.setAlerts', 'mutation', input, headers);
    expect([JSON.stringify(input), answer.status]).toEqual([JSON.stringify(input), 400]);
  }
  expect(await stored(agent.id)).toEqual({ sound: true });
  // and a page elsewhere cannot change them with the operator's cookie
  const forged = await rawCall(
    heed.url,
    'console.profile.setAlerts',
    'mutation',
    { sound: false },
    { cookie: agent.cookie, origin: 'https://evil.example' },
  );
  expect(forged.status).toBe(403);
  // signed out, nothing is read or changed
  await expect(consoleClient(heed.url, null).console.profile.alerts.query()).rejects.toThrow(/Sign in/);
  expect(await stored(agent.id)).toEqual({ sound: true });
});

test('a stored value no longer valid reads as the defaults, and a change starts over from it', async () => {
  const agent = await signedInOperator(heed.services, heed.url, { role: 'agent' });
  await heed.services.db.operator.update({ where: { id: agent.id }, data: { alerts: ['not', 'an', 'object'] } });
  expect(await agent.api.console.profile.alerts.query()).toMatchObject({ notify: true, sound: false, email: true });
  expect(await agent.api.console.profile.setAlerts.mutate({ sound: true })).toMatchObject({ notify: true, sound: true, email: true });
  expect(await stored(agent.id)).toEqual({ sound: true });
});

test('email is offered where the server sends it', async () => {
  const withSmtp = await TestHeed.start({ workers: 0, env: { SMTP_URL: 'smtp://127.0.0.1:2525' } });
  try {
    const owner = await signedInOperator(withSmtp.services, withSmtp.url);
    expect(await owner.api.console.profile.alerts.query()).toMatchObject({ email: true, emailEnabled: true });
  } finally {
    await withSmtp.stop();
  }
});
