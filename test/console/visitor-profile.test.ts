import { createHmac, randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { makeClient, TestHeed, TestVisitor } from '../support/harness.ts';
import { signedInOperator, type TestOperator } from '../support/console.ts';
import { errorOf, visitorOf } from '../handoff/helpers.ts';

/**
 * `console.visitors.profile`: who is on the other side of a conversation, as an operator sees
 * it beside the transcript: what the host signed about an identified user (name, email and
 * bounded attributes, bad ones dropped without failing the session), and the visitor's other
 * conversations on the site; within the operator's sites only.
 */
const SECRET = 'profile-identity-secret-0123456789abcdef';

let heed: TestHeed;
let owner: TestOperator;
let siteId: string;
beforeAll(async () => {
  heed = await TestHeed.start({ workers: 0 });
  owner = await signedInOperator(heed.services, heed.url);
  ({ id: siteId } = await heed.services.db.site.update({
    where: { key: heed.siteKey },
    data: { identitySecrets: [SECRET] },
    select: { id: true },
  }));
  heed.services.sites.clear();
});
afterAll(() => heed?.stop());

const jwt = (claims: Record<string, unknown>) =>
  new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('10m').sign(new TextEncoder().encode(SECRET));

/** A session of the host's user `userId`, identified with a JWT carrying `claims`. */
async function identified(userId: string, claims: Record<string, unknown>): Promise<TestVisitor> {
  const token = await jwt({ sub: userId, ...claims });
  const session = await makeClient(heed.url, null).session.start.mutate({ siteKey: heed.siteKey, identity: { userId, token } });
  return new TestVisitor(heed, session.visitorToken, session.visitorId);
}

const profileOf = (conversationId: string, op: TestOperator = owner) => op.api.console.visitors.profile.query({ conversationId });

describe('identity attributes', () => {
  test('the attributes a host signs are shown; bad ones are dropped one by one and the session still starts', async () => {
    const many = Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`extra${String(i).padStart(2, '0')}`, i]));
    const visitor = await identified('user-attrs', {
      name: 'Ines Costa',
      email: 'ines@example.test',
      attributes: {
        plan: 'pro',
        seats: 12,
        trial: false,
        nested: { not: 'allowed' },
        list: ['no'],
        empty: null,
        long: 'x'.repeat(201),
        nul: 'a\u0000b',
        ['k'.repeat(41)]: 'name too long',
        '': 'no name',
        'bad\nkey': 'control character',
        ...many,
      },
    });
    const conversationId = await visitor.conversation();
    const profile = await profileOf(conversationId);
    expect(profile.identified).toMatchObject({ userId: 'user-attrs', name: 'Ines Costa', email: 'ines@example.test' });
    const attributes = profile.identified!.attributes;
    // at most 20: the three good ones first, then the first 17 of the rest
    expect(Object.keys(attributes)).toHaveLength(20);
    expect(attributes).toMatchObject({ plan: 'pro', seats: 12, trial: false, extra00: 0, extra16: 16 });
    expect(attributes).not.toHaveProperty('extra17');
    for (const dropped of ['nested', 'list', 'empty', 'long', 'nul', 'k'.repeat(41), '', 'bad\nkey'])
      expect(Object.keys(attributes)).not.toContain(dropped);
  });

  test('a later identity without attributes keeps them; one with attributes replaces them; a userHash signs none', async () => {
    await identified('user-later', { attributes: { plan: 'free', company: 'Acme' } });
    const again = await identified('user-later', {});
    const conversationId = await again.conversation();
    expect((await profileOf(conversationId)).identified!.attributes).toEqual({ plan: 'free', company: 'Acme' });
    await identified('user-later', { attributes: { plan: 'pro' } });
    expect((await profileOf(conversationId)).identified!.attributes).toEqual({ plan: 'pro' });

    const userHash = createHmac('sha256', SECRET).update('user-hash').digest('hex');
    const session = await makeClient(heed.url, null).session.start.mutate({
      siteKey: heed.siteKey,
      identity: { userId: 'user-hash', userHash },
    });
    const hashed = new TestVisitor(heed, session.visitorToken, session.visitorId);
    expect((await profileOf(await hashed.conversation())).identified).toEqual({
      userId: 'user-hash',
      name: null,
      email: null,
      attributes: {},
    });
  });

  test('an anonymous visitor has no identity in the profile', async () => {
    const visitor = await heed.visitor('Asia/Tokyo');
    const profile = await profileOf(await visitor.conversation());
    expect(profile).toMatchObject({ identified: null, timeZone: 'Asia/Tokyo', earlier: [], visitorId: visitor.visitorId });
  });
});

describe('earlier conversations', () => {
  test('the visitor’s other conversations on the site, newest first, at most 20, a private one without its title, with their status', async () => {
    const visitor = await heed.visitor();
    const current = await visitor.conversation();
    const ids: string[] = [];
    for (let i = 0; i < 22; i++) ids.push((await visitor.api.conversation.create.mutate({ title: `Question ${i}` })).id);
    const db = heed.services.db;
    // activity order set outright, so "newest first" does not hang on the clock's resolution
    for (const [i, id] of ids.entries())
      await db.conversation.update({ where: { id }, data: { updatedAt: new Date(Date.UTC(2026, 0, 1, 0, i)) } });
    const [newest, second, third] = ids.slice(-3).reverse();
    await visitor.api.conversation.setPrivate.mutate({ conversationId: second!, private: true });
    await db.conversation.update({ where: { id: newest! }, data: { status: 'resolved', resolvedAt: new Date() } });
    await db.conversation.update({ where: { id: third! }, data: { status: 'snoozed', snoozedUntil: new Date(Date.now() - 60_000) } });
    // another visitor's conversation is not theirs
    await (await heed.visitor()).conversation();

    const { earlier } = await profileOf(current);
    expect(earlier).toHaveLength(20);
    expect(earlier.map((c) => c.id)).toEqual(ids.slice(-20).reverse());
    expect(earlier.map((c) => c.id)).not.toContain(current);
    expect(earlier[0]).toMatchObject({ id: newest, title: 'Question 21', private: false, status: 'resolved' });
    expect(earlier[1]).toMatchObject({ id: second, title: null, private: true, status: 'open' });
    // a snooze that has run out reads open
    expect(earlier[2]).toMatchObject({ id: third, title: 'Question 19', status: 'open' });
    expect(JSON.stringify(earlier)).not.toContain('Question 20');
  });
});

describe('scope', () => {
  test('an agent of another site gets NOT_FOUND, as for a conversation that does not exist; an agent of the site reads it', async () => {
    const otherKey = `other-${randomUUID().slice(0, 8)}`;
    const other = await owner.api.console.sites.create.mutate({ name: 'Other shop', key: otherKey });
    const stranger = await signedInOperator(heed.services, heed.url, { role: 'agent', sites: [other.id] });
    const colleague = await signedInOperator(heed.services, heed.url, { role: 'agent', sites: [siteId] });
    const conversationId = await (await heed.visitor()).conversation();

    expect(await errorOf(profileOf(conversationId, stranger))).toMatchObject({ code: 'NOT_FOUND' });
    expect(await errorOf(profileOf(randomUUID(), stranger))).toMatchObject({ code: 'NOT_FOUND' });
    expect((await profileOf(conversationId, colleague)).earlier).toEqual([]);
    // and the stranger reads their own site's visitors
    const theirs = await (await visitorOf(heed, otherKey)).conversation();
    expect((await profileOf(theirs, stranger)).identified).toBeNull();
  });
});
