import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { embedSnippet, generatedSiteKey } from '../../api/src/sites/site-settings.ts';
import { allowedOrigin } from '../../api/src/sites/site-settings-input.ts';
import { originAllowed } from '../../api/src/sites/origin-rule.ts';
import { consoleBaseUrl } from '../../api/src/trpc/console-procedure.ts';
import { makeClient, TestHeed } from '../support/harness.ts';
import { signedInOperator, type TestOperator } from '../support/console.ts';
import { rawCall, reasonOf } from './raw-call.ts';
import { fuzzSeed } from '../support/fuzz-seed.ts';

let heed: TestHeed;
let owner: TestOperator;
let agent: TestOperator;
beforeAll(async () => {
  heed = await TestHeed.start({ workers: 1 });
  owner = await signedInOperator(heed.services, heed.url, { role: 'owner' });
  agent = await signedInOperator(heed.services, heed.url, { role: 'agent' });
});
afterAll(() => heed?.stop());

const errorOf = async (call: Promise<unknown>) => {
  try {
    await call;
    return null;
  } catch (err) {
    const data = (err as { data?: { code?: string; reason?: string | null; fieldErrors?: Record<string, string[]> | null } }).data;
    return { code: data?.code, reason: data?.reason ?? null, fields: Object.keys(data?.fieldErrors ?? {}) };
  }
};

/** A new visitor of the site with `key`, from a page on `origin`. */
const startSession = (key: string, origin?: string, identity?: { userId: string; token: string }) =>
  rawCall(heed.url, 'session.start', 'mutation', { siteKey: key, ...(identity ? { identity } : {}) }, origin ? { origin } : {});

describe('creating and reading sites', () => {
  test('an owner creates a site with its settings; everyone reads them back with the embed snippet, and the site works at once', async () => {
    const created = await owner.api.console.sites.create.mutate({
      name: '  Ana’s Shop ',
      key: 'anas-shop',
      allowedOrigins: ['HTTPS://Shop.Example:443/', 'https://*.shop.example', 'http://localhost:3001'],
      accentColor: '#FF8800',
      greeting: 'Hi! Ask me about orders.',
      greetings: { de: ' Hallo! Fragen Sie mich nach Bestellungen. ', fr: '  ' },
      launcherPosition: 'bottom_left',
      model: 'gpt-4o-mini',
      replyMaxTokens: 512,
      systemPrompt: 'Answer in French.\nBe brief.',
      assistantName: 'Ana',
      attachmentKinds: ['png', 'pdf'],
      attachmentMaxBytes: 5_000_000,
    });
    expect(created).toEqual({
      id: expect.any(String),
      key: 'anas-shop',
      name: 'Ana’s Shop',
      allowedOrigins: ['https://shop.example', 'https://*.shop.example', 'http://localhost:3001'],
      requireIdentity: false,
      identitySecrets: 0,
      assistantName: 'Ana',
      greeting: 'Hi! Ask me about orders.',
      // trimmed, and a blank language dropped
      greetings: { de: 'Hallo! Fragen Sie mich nach Bestellungen.' },
      accentColor: '#ff8800',
      launcherPosition: 'bottom_left',
      systemPrompt: 'Answer in French.\nBe brief.',
      model: 'gpt-4o-mini',
      replyMaxTokens: 512,
      handoffEnabled: false,
      autoAssign: false,
      shareVisitorPages: false,
      checkInAfterMinutes: null,
      unsolicitedPerDay: 2,
      attachmentKinds: ['png', 'pdf'],
      attachmentMaxBytes: 5_000_000,
      attachmentMessageMaxBytes: 20 * 1024 * 1024,
      retentionDays: null,
      retentionSweptAt: null,
      retentionSweptCount: 0,
      snippet: `<script src="${heed.url}/widget.js" data-site="anas-shop" async></script>`,
      createdAt: expect.any(String),
    });
    expect(await agent.api.console.sites.get.query({ siteId: created.id })).toEqual(created);
    expect(await agent.api.console.sites.list.query()).toEqual(
      expect.arrayContaining([{ id: created.id, key: 'anas-shop', name: 'Ana’s Shop', conversations: 0, createdAt: created.createdAt }]),
    );
    // the widget on an allowed page gets the branding; another page is refused
    const session = await startSession('anas-shop', 'https://checkout.shop.example');
    expect(session.body.result?.data).toMatchObject({
      site: { name: 'Ana’s Shop', greeting: 'Hi! Ask me about orders.', accentColor: '#ff8800', launcherPosition: 'bottom-left' },
    });
    expect(reasonOf(await startSession('anas-shop', 'https://evil.example'))).toBe('origin_not_allowed');
    // a key taken is a conflict, not a 500
    expect(await errorOf(owner.api.console.sites.create.mutate({ name: 'Again', key: 'anas-shop' }))).toMatchObject({
      code: 'CONFLICT',
      reason: 'site_key_taken',
    });
  });

  test('without a key, one is made from the name; the snippet follows PUBLIC_URL when set', async () => {
    const site = await owner.api.console.sites.create.mutate({ name: 'Café Ünïcode & Co!' });
    expect(site.key).toMatch(/^cafe-unicode-co-[a-z0-9]{6}$/);
    expect(generatedSiteKey('!!!')).toMatch(/^site-[a-z0-9]{6}$/);
    expect(generatedSiteKey('x'.repeat(200)).length).toBeLessThanOrEqual(64);
    const behindProxy = {
      req: { headers: { host: 'internal:3000' } },
      services: { config: { ...heed.config, PUBLIC_URL: 'https://chat.example.com/heed/' } },
    };
    expect(consoleBaseUrl(behindProxy as unknown as Parameters<typeof consoleBaseUrl>[0])).toBe('https://chat.example.com/heed/');
    expect(embedSnippet('https://chat.example.com/heed/', 'k"<')).toBe(
      '<script src="https://chat.example.com/heed/widget.js" data-site="k&quot;&lt;" async></script>',
    );
  });

  test('allowed origins take the forms the origin rule reads, and nothing else', () => {
    const ok = ['https://shop.example', 'http://localhost:3001/', 'https://*.shop.example', 'HTTPS://SHOP.EXAMPLE:443'];
    for (const value of ok) {
      const stored = allowedOrigin.parse(value);
      expect(originAllowed([stored], stored.replace('*.', 'www.'))).toBe(true);
    }
    for (const value of [
      'shop.example',
      'https://shop.example/path',
      'https://shop.example?x',
      'ftp://shop.example',
      'https://*.com',
      'https://user:pw@shop.example',
      '*',
      'https://*',
      '',
    ]) {
      expect(allowedOrigin.safeParse(value).success, value).toBe(false);
    }
  });
});

describe('changing sites', () => {
  test('an update changes only what it names and applies without a restart; blank or null clears an optional setting', async () => {
    const site = await owner.api.console.sites.create.mutate({ name: 'Live changes', greeting: 'Old greeting', accentColor: '#000000' });
    expect((await startSession(site.key)).body.result?.data).toMatchObject({ site: { greeting: 'Old greeting' } }); // now cached
    const updated = await owner.api.console.sites.update.mutate({
      siteId: site.id,
      greeting: 'New greeting',
      accentColor: null,
      assistantName: '   ',
    });
    expect(updated).toMatchObject({
      name: 'Live changes',
      greeting: 'New greeting',
      accentColor: null,
      assistantName: null,
      key: site.key,
    });
    expect((await startSession(site.key)).body.result?.data).toMatchObject({ site: { greeting: 'New greeting', accentColor: null } });
    await owner.api.console.sites.update.mutate({ siteId: site.id, allowedOrigins: ['https://only.example'] });
    expect(reasonOf(await startSession(site.key, 'https://other.example'))).toBe('origin_not_allowed');
    expect(await errorOf(owner.api.console.sites.update.mutate({ siteId: randomUUID(), name: 'Nobody' }))).toMatchObject({
      code: 'NOT_FOUND',
    });
  });

  test('each setting is checked at the edge, naming the field', async () => {
    const site = await owner.api.console.sites.create.mutate({ name: 'Validated' });
    const cases: [Record<string, unknown>, string][] = [
      [{ accentColor: 'red' }, 'accentColor'],
      [{ accentColor: '#ff880' }, 'accentColor'],
      [{ greeting: 'x'.repeat(501) }, 'greeting'],
      [{ systemPrompt: 'x'.repeat(8001) }, 'systemPrompt'],
      [{ systemPrompt: 'a\u0000b' }, 'systemPrompt'],
      [{ model: 'm'.repeat(101) }, 'model'],
      [{ model: 'gpt 4' }, 'model'],
      [{ replyMaxTokens: 15 }, 'replyMaxTokens'],
      [{ replyMaxTokens: 8193 }, 'replyMaxTokens'],
      [{ replyMaxTokens: 100.5 }, 'replyMaxTokens'],
      [{ name: '' }, 'name'],
      [{ name: 'a\nb' }, 'name'],
      [{ assistantName: 'x'.repeat(61) }, 'assistantName'],
      [{ launcherPosition: 'top_left' }, 'launcherPosition'],
      [{ allowedOrigins: ['https://shop.example/path'] }, 'allowedOrigins'],
      [{ allowedOrigins: Array.from({ length: 51 }, (_, i) => `https://s${i}.example`) }, 'allowedOrigins'],
      [{ requireIdentity: 'yes' }, 'requireIdentity'],
      [{ greetings: { 'de-DE!': 'Hallo' } }, 'greetings'],
      [{ greetings: { de: 'x'.repeat(501) } }, 'greetings'],
      [{ greetings: ['Hallo'] }, 'greetings'],
    ];
    for (const [change, field] of cases) {
      const answer = await rawCall(
        heed.url,
        'console.sites.update',
        'mutation',
        { siteId: site.id, ...change },
        { cookie: owner.cookie, origin: heed.url },
      );
      expect([JSON.stringify(change).slice(0, 60), answer.status, Object.keys(answer.body.error?.data.fieldErrors ?? {})]).toEqual([
        JSON.stringify(change).slice(0, 60),
        400,
        [field],
      ]);
    }
    for (const key of ['ab', 'Upper-Case', '-dash-first', 'a b c', 'x'.repeat(65)]) {
      expect(await errorOf(owner.api.console.sites.create.mutate({ name: 'Bad key', key }))).toMatchObject({
        code: 'BAD_REQUEST',
        fields: ['key'],
      });
    }
    // the key is not a setting: it cannot change under the embedded snippets
    const rekey = await rawCall(
      heed.url,
      'console.sites.update',
      'mutation',
      { siteId: site.id, key: 'new-key' },
      { cookie: owner.cookie, origin: heed.url },
    );
    expect(rekey.status).toBe(400);
  });

  test('malformed inputs to every sites procedure answer 4xx, never 5xx', async () => {
    const site = await owner.api.console.sites.create.mutate({ name: 'Fuzzed' });
    const value = fc.oneof(
      fc.string(),
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.array(fc.string(), { maxLength: 60 }),
      fc.constant('\u0000'),
      fc.constant('#zzzzzz'),
      fc.object({ maxDepth: 1 }),
    );
    const fields = [
      'siteId',
      'name',
      'key',
      'allowedOrigins',
      'requireIdentity',
      'assistantName',
      'greeting',
      'accentColor',
      'launcherPosition',
      'systemPrompt',
      'model',
      'replyMaxTokens',
      'confirmKey',
    ];
    const paths = [
      'console.sites.create',
      'console.sites.update',
      'console.sites.get',
      'console.sites.deletion',
      'console.sites.delete',
      'console.sites.rotateIdentitySecret',
    ] as const;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...paths),
        fc.dictionary(fc.constantFrom(...fields), value),
        fc.boolean(),
        async (path, input, ownSite) => {
          const body = ownSite && 'siteId' in input ? { ...input, siteId: site.id } : input;
          const type = path.endsWith('get') || path.endsWith('deletion') ? 'query' : 'mutation';
          const answer = await rawCall(heed.url, path, type, body, { cookie: owner.cookie, origin: heed.url });
          expect(answer.status, `${path} ${JSON.stringify(body).slice(0, 200)}`).toBeLessThan(500);
        },
      ),
      { numRuns: 150, seed: fuzzSeed('console sites') },
    );
    expect(heed.logs.filter((l) => l.includes('"level":"error"'))).toEqual([]);
  }, 60_000);
});

describe('identity secrets', () => {
  const identityFor = async (secret: string) => {
    const userId = `user-${randomUUID().slice(0, 8)}`;
    const token = await new SignJWT({ sub: userId })
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime('10m')
      .sign(new TextEncoder().encode(secret));
    return { userId, token };
  };

  test('a rotated secret is shown once; the previous one keeps working until the next rotation', async () => {
    const site = await owner.api.console.sites.create.mutate({ name: 'Identified', requireIdentity: true });
    const { secret: first } = await owner.api.console.sites.rotateIdentitySecret.mutate({ siteId: site.id });
    expect(first).toMatch(/^[\w-]{43}$/);
    const settings = await owner.api.console.sites.get.query({ siteId: site.id });
    expect(settings.identitySecrets).toBe(1);
    expect(JSON.stringify(settings)).not.toContain(first);
    expect((await startSession(site.key, undefined, await identityFor(first))).status).toBe(200);

    const { secret: second } = await owner.api.console.sites.rotateIdentitySecret.mutate({ siteId: site.id });
    expect((await owner.api.console.sites.get.query({ siteId: site.id })).identitySecrets).toBe(2);
    expect((await startSession(site.key, undefined, await identityFor(second))).status).toBe(200);
    expect((await startSession(site.key, undefined, await identityFor(first))).status).toBe(200); // the host has not deployed the new one yet

    await owner.api.console.sites.rotateIdentitySecret.mutate({ siteId: site.id });
    const stored = await heed.services.db.site.findUniqueOrThrow({ where: { id: site.id }, select: { identitySecrets: true } });
    expect(stored.identitySecrets).toHaveLength(2);
    expect(stored.identitySecrets[1]).toBe(second);
    expect(reasonOf(await startSession(site.key, undefined, await identityFor(first)))).toBe('identity_invalid');
  });
});

describe('deleting sites', () => {
  /** A site with two visitors, each with a conversation and an answered message. */
  async function populatedSite(name: string) {
    const site = await owner.api.console.sites.create.mutate({ name });
    const conversations: string[] = [];
    const tokens: string[] = [];
    for (let i = 0; i < 2; i++) {
      const session = (await startSession(site.key)).body.result?.data as { visitorToken: string };
      const api = makeClient(heed.url, session.visitorToken);
      const { id } = await api.conversation.create.mutate();
      await api.message.send.mutate({ conversationId: id, clientMessageId: randomUUID(), content: `Question ${i}` });
      conversations.push(id);
      tokens.push(session.visitorToken);
    }
    await heed.until(
      'the replies',
      async () => (await heed.services.db.message.count({ where: { conversationId: { in: conversations }, role: 'assistant' } })) === 2,
    );
    return { site, conversations, tokens };
  }

  test('the confirmation says what goes; with the key typed, the site and all of it go in one transaction', async () => {
    const { site, conversations, tokens } = await populatedSite('Doomed');
    const counts = await owner.api.console.sites.deletion.query({ siteId: site.id });
    expect(counts).toEqual({ conversations: 2, visitors: 2, messages: 4 });
    expect(await errorOf(owner.api.console.sites.delete.mutate({ siteId: site.id, confirmKey: 'wrong-key' }))).toMatchObject({
      code: 'BAD_REQUEST',
      reason: 'confirm_key_mismatch',
    });
    expect(await heed.services.db.conversation.count({ where: { siteId: site.id } })).toBe(2);

    expect(await owner.api.console.sites.delete.mutate({ siteId: site.id, confirmKey: site.key })).toEqual({ deleted: counts });
    expect(await heed.services.db.conversation.count({ where: { id: { in: conversations } } })).toBe(0);
    expect(await heed.services.db.message.count({ where: { conversationId: { in: conversations } } })).toBe(0);
    expect(await heed.services.db.site.count({ where: { id: site.id } })).toBe(0);
    // at once, on this process: the key no longer starts sessions, the old visitors are signed out
    expect((await startSession(site.key)).status).toBeGreaterThanOrEqual(400);
    expect(await errorOf(makeClient(heed.url, tokens[0]!).conversation.list.query())).toMatchObject({ code: 'UNAUTHORIZED' });
    expect(await errorOf(owner.api.console.sites.get.query({ siteId: site.id }))).toMatchObject({ code: 'NOT_FOUND' });
  }, 60_000);

  test('a delete that fails part-way leaves everything as it was', async () => {
    const { site, conversations } = await populatedSite('Survivor');
    const db = heed.services.db;
    // the cascade reaches this conversation's messages last… and fails there
    await db.$executeRawUnsafe(`
      CREATE FUNCTION refuse_message_delete() RETURNS trigger AS $$
      BEGIN IF OLD."conversationId" = '${conversations[1]}' THEN RAISE EXCEPTION 'disk on fire'; END IF; RETURN OLD; END $$ LANGUAGE plpgsql`);
    await db.$executeRawUnsafe(
      'CREATE TRIGGER refuse_message_delete BEFORE DELETE ON "Message" FOR EACH ROW EXECUTE FUNCTION refuse_message_delete()',
    );
    try {
      const answer = await rawCall(
        heed.url,
        'console.sites.delete',
        'mutation',
        { siteId: site.id, confirmKey: site.key },
        { cookie: owner.cookie, origin: heed.url },
      );
      expect(answer.status).toBe(500);
      expect(answer.text).not.toContain('disk on fire'); // the database's words stay in the log
    } finally {
      await db.$executeRawUnsafe('DROP TRIGGER refuse_message_delete ON "Message"');
      await db.$executeRawUnsafe('DROP FUNCTION refuse_message_delete()');
    }
    expect(await db.site.count({ where: { id: site.id } })).toBe(1);
    expect(await owner.api.console.sites.deletion.query({ siteId: site.id })).toEqual({ conversations: 2, visitors: 2, messages: 4 });
  }, 60_000);
});
