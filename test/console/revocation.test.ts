import { afterAll, beforeAll, expect, test } from 'vitest';
import { bootstrapOwner } from '../../api/src/operators/bootstrap-owner.ts';
import { createOperatorSession, CONSOLE_COOKIE } from '../../api/src/operators/operator-sessions.ts';
import { TestHeed } from '../support/harness.ts';
import { consoleClient, signedInOperator, type TestOperator } from '../support/console.ts';
import { watchConsole } from '../handoff/helpers.ts';

/**
 * Revocation reaches open console streams at once, idle ones included: a stream with nothing
 * to deliver ends well before its own periodic session check (30 s) when its operator signs
 * out, is removed, gets a new password or new sites. `ended` waits at most 10 s.
 */
let heed: TestHeed;
let owner: TestOperator;
beforeAll(async () => {
  heed = await TestHeed.start({ workers: 0 });
  owner = await signedInOperator(heed.services, heed.url, { role: 'owner' });
});
afterAll(() => heed?.stop());

/** An idle stream of `op`, known to be listening: it delivered a change made after it opened. */
async function idleStream(op: TestOperator) {
  const live = watchConsole(heed, op, { lastEventId: '0' });
  const probe = await (await heed.visitor()).conversation();
  await live.until('a change made after the stream opened', probe, () => true);
  return live;
}

test('signing out ends that browser’s idle stream', async () => {
  const agent = await signedInOperator(heed.services, heed.url, { role: 'agent' });
  const live = await idleStream(agent);
  await agent.api.console.auth.signOut.mutate();
  await live.ended('the signed-out stream');
  live.close();
});

test('removing an operator ends their idle stream', async () => {
  const agent = await signedInOperator(heed.services, heed.url, { role: 'agent' });
  const live = await idleStream(agent);
  await owner.api.console.operators.remove.mutate({ operatorId: agent.id });
  await live.ended('the removed operator’s stream');
  live.close();
});

test('a new password set for an owner (HEED_ADMIN_PASSWORD) ends their idle stream', async () => {
  const email = `env-owner-${Date.now()}@example.test`;
  const quiet = { db: heed.services.db, bus: heed.services.bus, log: () => {} };
  await bootstrapOwner({ ...quiet, config: { ...heed.config, HEED_ADMIN_EMAIL: email, HEED_ADMIN_PASSWORD: 'first-password-123' } });
  const row = await heed.services.db.operator.findUniqueOrThrow({ where: { email }, select: { id: true } });
  const { token } = await createOperatorSession(heed.services.db, row.id);
  const cookie = `${CONSOLE_COOKIE}=${token}`;
  const live = await idleStream({ id: row.id, email, role: 'owner', cookie, api: consoleClient(heed.url, cookie) });
  await bootstrapOwner({ ...quiet, config: { ...heed.config, HEED_ADMIN_EMAIL: email, HEED_ADMIN_PASSWORD: 'second-password-456' } });
  await live.ended('the stream of the owner whose password changed');
  live.close();
});

test('a change of an agent’s sites ends their idle stream; a change of someone else’s does not reach it', async () => {
  const site = await heed.services.db.site.findUniqueOrThrow({ where: { key: heed.siteKey }, select: { id: true } });
  const agent = await signedInOperator(heed.services, heed.url, { role: 'agent' });
  const other = await signedInOperator(heed.services, heed.url, { role: 'agent' });
  const live = await idleStream(agent);
  await owner.api.console.operators.setSites.mutate({ operatorId: other.id, sites: [] });
  // the stream still delivers after someone else's change
  const probe = await (await heed.visitor()).conversation();
  await live.until('a change after another agent’s sites changed', probe, () => true);
  await owner.api.console.operators.setSites.mutate({ operatorId: agent.id, sites: [site.id] });
  await live.ended('the stream opened under every site');
  expect(live.errors).toEqual([]);
  live.close();
});
