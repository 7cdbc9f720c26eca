import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CONSOLE_EXPORT_PREFIX, CONSOLE_EXPORTS } from '../../api/src/http/console-export.ts';
import { TestHeed } from '../support/harness.ts';
import { signedInOperator, type TestOperator } from '../support/console.ts';
import { visitorOf, watchConsole } from '../handoff/helpers.ts';
import { consoleProcedures, rawCall, reasonOf, type RawAnswer } from './raw-call.ts';
import { OverviewSeed } from './overview-seed.ts';

/**
 * The console's one scope rule, walked over every console procedure and every console HTTP
 * route: an agent limited to site A, naming site B's ids, gets exactly what they would get for
 * ids that do not exist (NOT_FOUND, or the same empty answer), or `owner_only`; never a byte
 * of site B. A procedure or download added later is walked too (from the router and from
 * CONSOLE_EXPORTS), and fails here until this table says how to call it.
 */

/** The ids a call names: site B's, or fresh ones that exist nowhere. */
interface Ids {
  siteId: string;
  siteKey: string;
  conversationId: string;
  operatorId: string;
  intentRuleId: string;
  apiKeyId: string;
  knowledgeSourceId: string;
  unansweredId: string;
}

/** How to call each console procedure with a set of ids (auth.* is signed-out business, walked in auth.test.ts). */
const CALLS: Record<string, (ids: Ids) => unknown> = {
  'console.sites.list': () => undefined,
  'console.sites.get': ({ siteId }) => ({ siteId }),
  'console.sites.create': ({ siteKey }) => ({ name: 'Made by an agent', key: `${siteKey}-2` }),
  'console.sites.update': ({ siteId }) => ({ siteId, name: 'Renamed by an agent' }),
  'console.sites.deletion': ({ siteId }) => ({ siteId }),
  'console.sites.delete': ({ siteId, siteKey }) => ({ siteId, confirmKey: siteKey }),
  'console.sites.rotateIdentitySecret': ({ siteId }) => ({ siteId }),
  'console.operators.list': () => undefined,
  'console.operators.invite': ({ siteId }) => ({
    email: `via-agent-${randomUUID().slice(0, 8)}@example.test`,
    name: 'Via agent',
    role: 'agent',
    sites: [siteId],
  }),
  'console.operators.remove': ({ operatorId }) => ({ operatorId }),
  'console.operators.setSites': ({ operatorId, siteId }) => ({ operatorId, sites: [siteId] }),
  'console.conversations.list': ({ siteId }) => ({ siteId }),
  'console.conversations.changes': ({ siteId }) => ({ siteId }),
  'console.conversations.transcript': ({ conversationId }) => ({ conversationId }),
  'console.conversations.markRead': ({ conversationId }) => ({ conversationId }),
  'console.conversations.retry': ({ conversationId }) => ({ conversationId }),
  'console.conversations.rename': ({ conversationId }) => ({ conversationId, title: 'Renamed by an agent' }),
  'console.conversations.retitle': ({ conversationId }) => ({ conversationId }),
  'console.conversations.takeOver': ({ conversationId }) => ({ conversationId }),
  'console.conversations.reply': ({ conversationId }) => ({
    conversationId,
    text: 'Hello from site A',
    clientMessageId: `agent-${randomUUID()}`,
  }),
  'console.conversations.handBack': ({ conversationId }) => ({ conversationId }),
  'console.conversations.assign': ({ conversationId, operatorId }) => ({ conversationId, assigneeId: operatorId }),
  'console.conversations.setStatus': ({ conversationId }) => ({ conversationId, change: { status: 'resolved' } }),
  'console.conversations.addNote': ({ conversationId }) => ({ conversationId, text: 'A note by an agent' }),
  'console.cannedReplies.list': ({ siteId }) => ({ siteId }),
  'console.cannedReplies.save': ({ siteId }) => ({ siteId, shortcut: 'agent', content: 'By an agent' }),
  'console.cannedReplies.remove': ({ siteId }) => ({ siteId, id: randomUUID() }),
  'console.overview.series': ({ siteId }) => ({ range: '7d', siteId }),
  'console.model.status': () => undefined,
  'console.proactive.intentRules.list': ({ siteId }) => ({ siteId }),
  'console.proactive.intentRules.save': ({ siteId }) => ({
    siteId,
    name: 'agent_rule',
    label: 'x',
    instruction: 'x',
    fixedMessage: null,
    enabled: true,
  }),
  'console.proactive.intentRules.remove': ({ siteId, intentRuleId }) => ({ siteId, id: intentRuleId }),
  'console.proactive.apiKeys.list': ({ siteId }) => ({ siteId }),
  'console.proactive.apiKeys.create': ({ siteId }) => ({ siteId, name: 'agent key' }),
  'console.proactive.apiKeys.revoke': ({ siteId, apiKeyId }) => ({ siteId, id: apiKeyId }),
  'console.proactive.stats': ({ siteId }) => ({ siteId }),
  'console.knowledge.sources': ({ siteId }) => ({ siteId }),
  'console.knowledge.add': ({ siteId }) => ({ siteId, url: 'https://agent.example/sitemap.xml' }),
  'console.knowledge.sync': ({ knowledgeSourceId }) => ({ sourceId: knowledgeSourceId }),
  'console.knowledge.remove': ({ knowledgeSourceId }) => ({ sourceId: knowledgeSourceId }),
  'console.knowledge.upload': ({ siteId }) => ({
    siteId,
    name: 'agent.md',
    contentBase64: Buffer.from('# Agent\n\nWords.').toString('base64'),
  }),
  'console.knowledge.saveSnippet': ({ siteId, knowledgeSourceId }) => ({
    siteId,
    id: knowledgeSourceId,
    question: 'Agent?',
    answer: 'Agent.',
  }),
  'console.knowledge.unanswered': ({ siteId }) => ({ siteId }),
  'console.knowledge.dismissUnanswered': ({ unansweredId }) => ({ id: unansweredId }),
  'console.visitors.profile': ({ conversationId }) => ({ conversationId }),
  'console.visitors.erasure': ({ conversationId }) => ({ conversationId }),
  'console.visitors.erase': ({ conversationId }) => ({ conversationId }),
};

/** Words only site B's data holds: none may reach the agent. */
const MARKER = `site-b-marker-${randomUUID().slice(0, 8)}`;

let heed: TestHeed;
let owner: TestOperator;
/** an agent of site A only */
let agent: TestOperator;
let siteA: string;
let b: Ids;
let conversationA: string;

beforeAll(async () => {
  heed = await TestHeed.start({ workers: 0 });
  const db = heed.services.db;
  owner = await signedInOperator(heed.services, heed.url, { role: 'owner' });
  ({ id: siteA } = await db.site.findUniqueOrThrow({ where: { key: heed.siteKey }, select: { id: true } }));
  agent = await signedInOperator(heed.services, heed.url, { role: 'agent', sites: [siteA], name: 'Ada' });

  const siteKey = `b-${randomUUID().slice(0, 8)}`;
  const siteB = await owner.api.console.sites.create.mutate({ name: `Shop ${MARKER}`, key: siteKey });
  const visitorB = await visitorOf(heed, siteKey);
  const conversationId = await visitorB.conversation();
  await visitorB.send(conversationId, `My order ${MARKER} never came`);
  // figures for the overview: a reply with its tokens and cost, on site B only
  await new OverviewSeed(heed.services, siteB.id, visitorB.visitorId).run(conversationId, new Date(Date.now() - 600_000), {
    promptTokens: 4321,
    completionTokens: 765,
    costUsd: 0.25,
  });
  // an agent of site B, whom the agent of site A sees in the team, but not their sites
  const bea = await signedInOperator(heed.services, heed.url, { role: 'agent', sites: [siteB.id], name: 'Bea' });
  const rule = await owner.api.console.proactive.intentRules.save.mutate({
    siteId: siteB.id,
    name: 'b_rule',
    label: MARKER,
    instruction: MARKER,
    fixedMessage: null,
    enabled: true,
  });
  const key = await owner.api.console.proactive.apiKeys.create.mutate({ siteId: siteB.id, name: MARKER });
  // written as a sync leaves it (no sync runs here: the URL is B's words only)
  const source = await db.knowledgeSource.create({
    data: { siteId: siteB.id, url: `https://b.example/${MARKER}.xml` },
    select: { id: true },
  });
  const unanswered = await db.unansweredQuestion.create({
    data: { siteId: siteB.id, conversationId, runId: randomUUID(), text: `Do you sell ${MARKER}?` },
    select: { id: true },
  });
  b = {
    unansweredId: unanswered.id,
    siteId: siteB.id,
    siteKey,
    conversationId,
    operatorId: bea.id,
    intentRuleId: rule.id,
    apiKeyId: key.id,
    knowledgeSourceId: source.id,
  };

  const visitorA = await heed.visitor();
  conversationA = await visitorA.conversation();
  await visitorA.send(conversationA, 'A question on site A');
});
afterAll(() => heed?.stop());

const fresh = (): Ids => ({
  siteId: randomUUID(),
  siteKey: `none-${randomUUID().slice(0, 8)}`,
  conversationId: randomUUID(),
  operatorId: randomUUID(),
  intentRuleId: randomUUID(),
  apiKeyId: randomUUID(),
  knowledgeSourceId: randomUUID(),
  unansweredId: randomUUID(),
});

/** The answer with every id the call named written as its name, so answers for B's ids and for fresh ones compare. */
const neutral = (answer: RawAnswer, ids: Ids, input: unknown) =>
  Object.entries(ids)
    .filter(([, id]) => JSON.stringify(input ?? null).includes(id))
    .reduce((text, [name, id]) => text.replaceAll(id, `<${name}>`), `${answer.status} ${reasonOf(answer) ?? ''} ${answer.text}`);

/** Whatever of site B could leak: its ids, key, name and words. */
const leaksOf = (text: string) =>
  [MARKER, b.siteId, b.siteKey, b.conversationId, b.intentRuleId, b.apiKeyId, b.knowledgeSourceId, b.unansweredId].filter((s) =>
    text.includes(s),
  );

/** Site B as an owner sees it: what the agent's calls must leave as it was. */
async function siteB() {
  const db = heed.services.db;
  return {
    site: await db.site.findUniqueOrThrow({ where: { id: b.siteId }, select: { name: true, identitySecrets: true } }),
    conversation: await db.conversation.findUniqueOrThrow({
      where: { id: b.conversationId },
      select: { title: true, heldById: true, titleState: true },
    }),
    messages: await db.message.count({ where: { conversationId: b.conversationId } }),
    reads: await db.operatorRead.count({ where: { conversationId: b.conversationId } }),
    rules: await db.intentRule.count({ where: { siteId: b.siteId } }),
    keys: await db.siteApiKey.count({ where: { siteId: b.siteId, revokedAt: null } }),
    sources: await db.knowledgeSource.findMany({ where: { siteId: b.siteId }, select: { id: true, syncFence: true, name: true } }),
    unanswered: await db.unansweredQuestion.findMany({ where: { siteId: b.siteId }, select: { id: true, dismissedAt: true } }),
    bea: await db.operator.findUniqueOrThrow({ where: { id: b.operatorId }, select: { siteIds: true, allSites: true } }),
  };
}

describe('an agent of site A naming site B', () => {
  test('every console procedure answers as for ids that exist nowhere (or owner_only), leaks nothing of B and changes nothing', async () => {
    const before = await siteB();
    // profile.* names no site or id: it acts on the caller alone (test/console/profile.test.ts)
    const walked = consoleProcedures().filter(
      ({ path, type }) => !path.startsWith('console.auth.') && !path.startsWith('console.profile.') && type !== 'subscription',
    );
    expect(Object.keys(CALLS).sort()).toEqual(expect.arrayContaining(walked.map((p) => p.path)));
    for (const { path, type } of walked) {
      const call = CALLS[path]!;
      const headers = { cookie: agent.cookie, origin: heed.url };
      const inputB = call(b);
      const forB = await rawCall(heed.url, path, type, inputB, headers);
      const none = fresh();
      const inputNone = call(none);
      const forNone = await rawCall(heed.url, path, type, inputNone, headers);
      expect([path, [200, 403, 404].includes(forB.status)]).toEqual([path, true]);
      if (forB.status === 403) expect([path, reasonOf(forB)]).toEqual([path, 'owner_only']);
      expect([path, neutral(forB, b, inputB)]).toEqual([path, neutral(forNone, none, inputNone)]);
      expect([path, leaksOf(forB.text)]).toEqual([path, []]);
    }
    expect(await siteB()).toEqual(before);
  });

  test('the calls that name no site answer A only: the list, the sites, the team (other agents’ sites hidden) and the overview', async () => {
    const list = await agent.api.console.conversations.list.query({});
    expect(list.items.map((i) => i.id)).toEqual([conversationA]);
    expect((await agent.api.console.sites.list.query()).map((s) => s.id)).toEqual([siteA]);
    const team = await agent.api.console.operators.list.query();
    expect(team.find((o) => o.id === b.operatorId)).toMatchObject({ name: 'Bea', siteIds: [] });
    const everything = JSON.stringify([list, team, await agent.api.console.overview.series.query({ range: '7d' })]);
    expect(leaksOf(everything)).toEqual([]);
    const counted = (await agent.api.console.overview.series.query({ range: '7d' })).points.reduce(
      (n, p) => n + p.conversations + p.promptTokens,
      0,
    );
    expect(counted).toBe(1);
    // the owner, for contrast, sees B's figures
    const ownerCounted = (await owner.api.console.overview.series.query({ range: '7d', siteId: b.siteId })).points.reduce(
      (n, p) => n + p.promptTokens,
      0,
    );
    expect(ownerCounted).toBe(4321);
  });

  test('the live list never carries B, with or without B’s id', async () => {
    const all = watchConsole(heed, agent);
    const onlyB = watchConsole(heed, agent, { siteId: b.siteId });
    // the streams are listening once they deliver a change of A made after they opened
    const visitorA = await heed.visitor();
    const probe = await visitorA.conversation();
    await all.until('a change of site A', probe, () => true);
    const visitorB = await visitorOf(heed, b.siteKey);
    await visitorB.send(await visitorB.conversation(), `Another ${MARKER}`);
    await heed.services.db.conversation.update({ where: { id: b.conversationId }, data: { title: `Retitled ${MARKER}` } });
    await heed.services.bus.touchConversations([b.conversationId]);
    // B's changes were published before this one: a stream that would send them sends them first
    const after = await visitorA.conversation();
    await all.until('the change of site A after B’s', after, () => true);
    expect(leaksOf(JSON.stringify([all.items, onlyB.items]))).toEqual([]);
    expect(onlyB.items).toEqual([]);
    expect([all.errors, onlyB.errors]).toEqual([[], []]);
    all.close();
    onlyB.close();
  });

  test('every console download answers as for a site that exists nowhere, and without a site counts A only', async () => {
    const names = Object.keys(CONSOLE_EXPORTS);
    expect(names.length).toBeGreaterThan(0);
    const get = async (name: string, q: Record<string, string>) => {
      // the overview's download takes a range; the others take the list's filters, left at their defaults
      const query = new URLSearchParams({ ...(name.startsWith('overview') ? { range: '7d' } : {}), ...q });
      const res = await fetch(`${heed.url}${CONSOLE_EXPORT_PREFIX}${name}?${query}`, { headers: { cookie: agent.cookie } });
      return { status: res.status, text: await res.text() };
    };
    for (const name of names.filter((n) => n !== 'visitor.json')) {
      const none = randomUUID();
      const forB = await get(name, { siteId: b.siteId });
      const forNone = await get(name, { siteId: none });
      expect([name, forB.status]).toEqual([name, 200]);
      expect([name, forB.text.replaceAll(b.siteId, '<site>')]).toEqual([name, forNone.text.replaceAll(none, '<site>')]);
      // without a site: the agent's sites, which are A alone
      const mine = await get(name, {});
      const onlyA = await get(name, { siteId: siteA });
      expect([name, leaksOf(mine.text)]).toEqual([name, []]);
      expect([name, mine.text]).toEqual([name, onlyA.text]);
    }
    // a visitor's data is named by a conversation: B's answers as one that exists nowhere
    const forB = await get('visitor.json', { conversationId: b.conversationId });
    const forNone = await get('visitor.json', { conversationId: randomUUID() });
    expect(forB).toEqual({ status: 404, text: forNone.text });
    const forA = await get('visitor.json', { conversationId: conversationA });
    expect(forA.status).toBe(200);
    expect(leaksOf(forA.text)).toEqual([]);
  });
});
