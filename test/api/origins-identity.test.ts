import { createHmac, randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { makeClient, TestHeed } from '../support/harness.ts';

/**
 * Who may use a site: browser pages on its allowed origins, and, with identity
 * verification, users the host's backend signed for. Everything through real HTTP.
 */
let heed: TestHeed;
beforeAll(async () => {
  heed = await TestHeed.start();
});
afterAll(() => heed?.stop());

const SECRET = 'site-identity-secret-0123456789abcdef';
const OLD_SECRET = 'site-identity-secret-before-rotation-xyz';

async function updateSite(data: { allowedOrigins?: string[]; identitySecrets?: string[]; requireIdentity?: boolean }) {
  await heed.services.db.site.update({ where: { key: heed.siteKey }, data });
  heed.services.sites.clear();
}

beforeEach(() => updateSite({ allowedOrigins: [], identitySecrets: [SECRET], requireIdentity: false }));

/** A raw tRPC call as a browser on `origin` makes it (Node's fetch lets us set Origin). */
async function call(path: string, input: unknown, opts: { origin?: string; token?: string; method?: 'GET' | 'POST' } = {}) {
  const method = opts.method ?? 'POST';
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (opts.origin) headers.origin = opts.origin;
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  const url = method === 'GET' ? `${heed.url}/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}` : `${heed.url}/trpc/${path}`;
  const res = await fetch(url, { method, headers, body: method === 'POST' ? JSON.stringify(input) : undefined });
  const body = (await res.json()) as { result?: { data: unknown }; error?: { data: { code: string; reason: string | null } } };
  return {
    status: res.status,
    headers: res.headers,
    data: body.result?.data as Record<string, unknown> | undefined,
    error: body.error?.data,
  };
}

const jwt = (claims: Record<string, unknown>, opts: { secret?: string; expiresIn?: string | number; alg?: string } = {}) => {
  const builder = new SignJWT(claims).setProtectedHeader({ alg: opts.alg ?? 'HS256' }).setIssuedAt();
  if (opts.expiresIn !== undefined) builder.setExpirationTime(opts.expiresIn);
  return builder.sign(new TextEncoder().encode(opts.secret ?? SECRET));
};

describe('allowed origins', () => {
  test('a page on an origin the site does not list is refused with 403 origin_not_allowed; a listed one, and a server without Origin, are served', async () => {
    await updateSite({ allowedOrigins: ['https://shop.example', 'https://*.shop.example'] });
    const refused = await call('session.start', { siteKey: heed.siteKey }, { origin: 'https://evil.example' });
    expect(refused.status).toBe(403);
    expect(refused.error).toMatchObject({ code: 'FORBIDDEN', reason: 'origin_not_allowed' });
    expect(await heed.services.db.visitor.count({ where: { site: { key: heed.siteKey } } })).toBe(0);

    for (const origin of ['https://shop.example', 'https://SHOP.example:443', 'https://eu.shop.example', undefined]) {
      const ok = await call('session.start', { siteKey: heed.siteKey }, { origin });
      expect(ok.status, String(origin)).toBe(200);
    }
    // lookalikes are not subdomains
    for (const origin of ['https://evilshop.example', 'http://shop.example', 'https://shop.example.evil.example']) {
      expect((await call('session.start', { siteKey: heed.siteKey }, { origin })).status, origin).toBe(403);
    }
  });

  test('every visitor procedure and the event stream check the origin too, with the change applied without a restart', async () => {
    const started = await call('session.start', { siteKey: heed.siteKey }, { origin: 'https://shop.example' });
    const token = started.data!.visitorToken as string;
    expect((await call('conversation.list', undefined, { origin: 'https://evil.example', token, method: 'GET' })).status).toBe(200);

    await updateSite({ allowedOrigins: ['https://shop.example'] });
    const list = await call('conversation.list', undefined, { origin: 'https://evil.example', token, method: 'GET' });
    expect(list).toMatchObject({ status: 403, error: { reason: 'origin_not_allowed' } });
    expect((await call('conversation.create', {}, { origin: 'https://evil.example', token })).status).toBe(403);
    const ticket = await call('events.ticket', undefined, { origin: 'https://evil.example', token });
    expect(ticket.status).toBe(403);

    // a ticket got from an allowed page does not open the stream from a refused one
    const allowed = await call('events.ticket', undefined, { origin: 'https://shop.example', token });
    const params = encodeURIComponent(JSON.stringify({ ticket: allowed.data!.ticket }));
    const stream = await fetch(`${heed.url}/trpc/events.subscribe?input=${encodeURIComponent('{}')}&connectionParams=${params}`, {
      headers: { origin: 'https://evil.example' },
      signal: AbortSignal.timeout(5_000),
    });
    const text = await readUntil(stream, 'origin_not_allowed');
    expect(text).toContain('origin_not_allowed');
  });

  test('CORS preflights vary by Origin', async () => {
    const res = await fetch(`${heed.url}/trpc/session.start`, {
      method: 'OPTIONS',
      headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('vary')).toMatch(/origin/i);
  });
});

describe('event-stream tickets', () => {
  test('the event stream refuses the visitor token in its URL and takes a ticket instead', async () => {
    const visitor = await heed.visitor();
    const asToken = encodeURIComponent(JSON.stringify({ token: visitor.token }));
    const refused = await fetch(`${heed.url}/trpc/events.subscribe?input=${encodeURIComponent('{}')}&connectionParams=${asToken}`, {
      signal: AbortSignal.timeout(5_000),
    });
    expect(await readUntil(refused, 'stream_ticket_invalid')).toContain('stream_ticket_invalid');

    const { ticket, expiresInMs } = await visitor.api.events.ticket.mutate();
    expect(ticket).not.toContain(visitor.token.split('.').at(-1)!);
    expect(expiresInMs).toBeLessThanOrEqual(5 * 60_000);
    const ok = await fetch(
      `${heed.url}/trpc/events.subscribe?input=${encodeURIComponent('{}')}&connectionParams=${encodeURIComponent(JSON.stringify({ ticket }))}`,
      {
        signal: AbortSignal.timeout(5_000),
      },
    );
    expect(await readUntil(ok, 'connected')).toContain('event: connected');
  });
});

describe('verified identity', () => {
  test('a user signed in with a JWT gets the same conversations on another browser', async () => {
    const userId = `user-${randomUUID()}`;
    const identity = { userId, token: await jwt({ sub: userId, name: 'Ana Lima', email: 'ana@example.com' }, { expiresIn: '1h' }) };
    const laptop = await call('session.start', { siteKey: heed.siteKey, identity });
    expect(laptop.status).toBe(200);
    expect(laptop.data).toMatchObject({ userId });
    const created = await makeClient(heed.url, laptop.data!.visitorToken as string).conversation.create.mutate();

    const phone = await call('session.start', {
      siteKey: heed.siteKey,
      identity: { userId, token: await jwt({ sub: userId }, { expiresIn: '10m' }) },
    });
    expect(phone.data!.visitorId).toBe(laptop.data!.visitorId);
    const { conversations } = await makeClient(heed.url, phone.data!.visitorToken as string).conversation.list.query();
    expect(conversations.map((c) => c.id)).toEqual([created.id]);
    const row = await heed.services.db.visitor.findUniqueOrThrow({ where: { id: laptop.data!.visitorId as string } });
    expect(row).toMatchObject({ externalId: userId, name: 'Ana Lima', email: 'ana@example.com' });
  });

  test('a signed name PostgreSQL cannot store (a NUL) is dropped, and the session starts all the same', async () => {
    const userId = `user-${randomUUID()}`;
    const identity = { userId, token: await jwt({ sub: userId, name: 'Ana\u0000Lima', email: 'ana@example.com' }, { expiresIn: '1h' }) };
    const started = await call('session.start', { siteKey: heed.siteKey, identity });
    expect(started.status, JSON.stringify(started.error)).toBe(200);
    const row = await heed.services.db.visitor.findUniqueOrThrow({ where: { id: started.data!.visitorId as string } });
    expect(row).toMatchObject({ externalId: userId, name: null, email: 'ana@example.com' });
  });

  test("identifying joins the anonymous visitor's conversations to the user's; the anonymous token no longer resumes them", async () => {
    const anonymous = await heed.visitor();
    const conversationId = await anonymous.conversation();
    await anonymous.send(conversationId, 'Asked before signing in');
    const userId = `user-${randomUUID()}`;
    const token = await jwt({ sub: userId }, { expiresIn: '1h' });

    const identified = await makeClient(heed.url, anonymous.token).session.identify.mutate({ identity: { userId, token } });
    expect(identified.userId).toBe(userId);
    expect(identified.visitorId).not.toBe(anonymous.visitorId);
    const mine = await makeClient(heed.url, identified.visitorToken).conversation.list.query();
    expect(mine.conversations.map((c) => c.id)).toEqual([conversationId]);
    expect((await anonymous.api.conversation.list.query()).conversations).toEqual([]);

    // the same through session.start with the anonymous token, as the widget does on load
    const other = await heed.visitor();
    const second = await other.conversation();
    const started = await call('session.start', { siteKey: heed.siteKey, visitorToken: other.token, identity: { userId, token } });
    expect(started.data!.visitorId).toBe(identified.visitorId);
    const all = await makeClient(heed.url, started.data!.visitorToken as string).conversation.list.query();
    expect(all.conversations.map((c) => c.id).sort()).toEqual([conversationId, second].sort());
  });

  test("an identified visitor's token is not resumed without the identity (a shared computer after sign-out)", async () => {
    const userId = `user-${randomUUID()}`;
    const signedIn = await call('session.start', {
      siteKey: heed.siteKey,
      identity: { userId, token: await jwt({ sub: userId }, { expiresIn: '1h' }) },
    });
    const after = await call('session.start', { siteKey: heed.siteKey, visitorToken: signedIn.data!.visitorToken });
    expect(after.data).toMatchObject({ resumed: false, userId: null });
    expect(after.data!.visitorId).not.toBe(signedIn.data!.visitorId);
  });

  test('forged, expired, too long-lived, wrong-user and unsigned tokens are refused with a clear code', async () => {
    const userId = `user-${randomUUID()}`;
    const cases: [string, string, string][] = [
      ['another secret', await jwt({ sub: userId }, { secret: 'not-the-site-secret-at-all-0000', expiresIn: '1h' }), 'identity_invalid'],
      ['expired', await jwt({ sub: userId }, { expiresIn: Math.floor(Date.now() / 1000) - 600 }), 'identity_expired'],
      ['no exp', await jwt({ sub: userId }), 'identity_invalid'],
      ['30 days', await jwt({ sub: userId }, { expiresIn: '30d' }), 'identity_invalid'],
      ['another user', await jwt({ sub: 'someone-else' }, { expiresIn: '1h' }), 'identity_invalid'],
      [
        'alg none',
        `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ sub: userId, exp: Math.floor(Date.now() / 1000) + 600 })}.`,
        'identity_invalid',
      ],
      ['garbage', 'not.a.jwt', 'identity_invalid'],
    ];
    for (const [what, token, reason] of cases) {
      const res = await call('session.start', { siteKey: heed.siteKey, identity: { userId, token } });
      expect(res.status, what).toBe(401);
      expect(res.error?.reason, what).toBe(reason);
    }
    expect(await heed.services.db.visitor.count({ where: { externalId: userId } })).toBe(0);
  });

  test('during a rotation both identity secrets verify; the static userHash works and is checked', async () => {
    await updateSite({ identitySecrets: [SECRET, OLD_SECRET] });
    const userId = `user-${randomUUID()}`;
    const old = await call('session.start', {
      siteKey: heed.siteKey,
      identity: { userId, token: await jwt({ sub: userId }, { secret: OLD_SECRET, expiresIn: '1h' }) },
    });
    expect(old.data).toMatchObject({ userId });

    const userHash = createHmac('sha256', SECRET).update(userId).digest('hex');
    const hashed = await call('session.start', { siteKey: heed.siteKey, identity: { userId, userHash } });
    expect(hashed.data!.visitorId).toBe(old.data!.visitorId);
    const wrong = await call('session.start', { siteKey: heed.siteKey, identity: { userId: `${userId}-x`, userHash } });
    expect(wrong.error?.reason).toBe('identity_invalid');

    await updateSite({ identitySecrets: [SECRET] });
    const retired = await call('session.start', {
      siteKey: heed.siteKey,
      identity: { userId, token: await jwt({ sub: userId }, { secret: OLD_SECRET, expiresIn: '1h' }) },
    });
    expect(retired.error?.reason).toBe('identity_invalid');
  });

  test('a site that requires identity refuses anonymous sessions and anonymous tokens, and serves identified users', async () => {
    const anonymous = await heed.visitor();
    await updateSite({ requireIdentity: true });
    const refused = await call('session.start', { siteKey: heed.siteKey });
    expect(refused).toMatchObject({ status: 401, error: { reason: 'identity_required' } });
    expect((await call('session.start', { siteKey: heed.siteKey, visitorToken: anonymous.token })).error?.reason).toBe('identity_required');
    const userId = `user-${randomUUID()}`;
    const ok = await call('session.start', {
      siteKey: heed.siteKey,
      identity: { userId, token: await jwt({ sub: userId }, { expiresIn: '1h' }) },
    });
    expect(ok.status).toBe(200);
  });

  test('a site without an identity secret says so', async () => {
    await updateSite({ identitySecrets: [] });
    const userId = `user-${randomUUID()}`;
    const res = await call('session.start', {
      siteKey: heed.siteKey,
      identity: { userId, token: await jwt({ sub: userId }, { expiresIn: '1h' }) },
    });
    expect(res.error?.reason).toBe('identity_not_configured');
  });
});

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

/** Reads an SSE response until `needle` shows up (or the stream ends), then stops reading. */
async function readUntil(res: Response, needle: string): Promise<string> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      if (text.includes(needle)) break;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return text;
}
