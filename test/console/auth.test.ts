import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { hashPassword, needsRehash, SCRYPT_PARAMS, verifyPassword } from '../../api/src/operators/password.ts';
import { sessionIdOf } from '../../api/src/operators/operator-sessions.ts';
import { SIGN_IN_LIMITS } from '../../api/src/operators/sign-in-throttle.ts';
import { TestHeed } from '../support/harness.ts';
import { consoleClient, signedInOperator } from '../support/console.ts';
import { consoleProcedures, rawCall, reasonOf, type RawAnswer } from './raw-call.ts';
import { fuzzSeed } from '../support/fuzz-seed.ts';

/**
 * Signing in to the console, for real: PostgreSQL, Redis, scrypt, the HTTP server. The
 * stack trusts one proxy (TRUST_PROXY=1) so each test signs in from its own address
 * (`X-Forwarded-For`) and the per-address throttle of one test does not spill into another.
 */
let heed: TestHeed;
/** every password and token these tests handled: none may reach a response body or a log */
const secrets: string[] = [];

beforeAll(async () => {
  heed = await TestHeed.start({ workers: 0, env: { TRUST_PROXY: '1' } });
});
afterAll(() => heed?.stop());

let lastIp = 0;
/** A fresh client address for one test's sign-ins. */
const newIp = () => `203.0.113.${++lastIp}`;

async function operatorWithPassword(role: 'owner' | 'agent' = 'owner'): Promise<{ id: string; email: string; password: string }> {
  const email = `op-${randomUUID().slice(0, 8)}@example.test`;
  const password = `pw-${randomUUID()}`;
  secrets.push(password);
  const row = await heed.services.db.operator.create({
    data: { email, name: 'Ana Operator', role, passwordHash: await hashPassword(password) },
    select: { id: true },
  });
  return { id: row.id, email, password };
}

function signIn(email: string, password: string, ip: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return rawCall(heed.url, 'console.auth.signIn', 'mutation', { email, password }, { origin: heed.url, 'x-forwarded-for': ip, ...headers });
}

/** The cookie pair (`heed_console=…`) a sign-in set. */
function cookieOf(answer: RawAnswer): string {
  const header = answer.headers.get('set-cookie') ?? '';
  const pair = header.split(';')[0]!;
  secrets.push(pair.split('=')[1]!);
  return pair;
}

describe('passwords', () => {
  test('a hash names its scrypt parameters and salt; the same password hashes differently each time; weaker hashes are flagged for an upgrade', async () => {
    const a = await hashPassword('correct horse battery staple');
    const b = await hashPassword('correct horse battery staple');
    expect(a).toMatch(new RegExp(`^scrypt\\$${SCRYPT_PARAMS.N}\\$${SCRYPT_PARAMS.r}\\$${SCRYPT_PARAMS.p}\\$[\\w-]+\\$[\\w-]+$`));
    expect(a).not.toBe(b);
    expect(await verifyPassword('correct horse battery staple', a)).toBe(true);
    expect(await verifyPassword('correct horse battery stapl', a)).toBe(false);
    const weak = await hashPassword('correct horse battery staple', { N: 2 ** 10, r: 8, p: 1 });
    expect(await verifyPassword('correct horse battery staple', weak)).toBe(true);
    expect([needsRehash(weak), needsRehash(a)]).toEqual([true, false]);
    // a corrupted row asking for a gigabyte of memory is refused, not obeyed
    expect(await verifyPassword('x', 'scrypt$1073741824$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')).toBe(
      false,
    );
  });
});

describe('sign-in', () => {
  test('the right password signs in: an HttpOnly, SameSite=Strict session cookie for the whole origin, and no token in the answer', async () => {
    const op = await operatorWithPassword();
    const answer = await signIn(op.email.toUpperCase(), op.password, newIp());
    expect(answer.status).toBe(200);
    expect(answer.body.result?.data).toEqual({ operator: { id: op.id, email: op.email, name: 'Ana Operator', role: 'owner' } });
    const header = answer.headers.get('set-cookie')!;
    expect(header).toMatch(/^heed_console=[A-Za-z0-9_-]{43}; HttpOnly; SameSite=Strict; Path=\/; Max-Age=604800$/); // plain http: no Secure
    const cookie = cookieOf(answer);
    expect(answer.text).not.toContain(cookie.split('=')[1]);
    expect(answer.text).not.toContain('scrypt');

    // the cookie is the session: the console knows who is signed in
    const me = await consoleClient(heed.url, cookie).console.auth.me.query();
    expect(me).toEqual({ id: op.id, email: op.email, name: 'Ana Operator', role: 'owner' });
    // the database holds only the token's hash
    const session = await heed.services.db.operatorSession.findFirstOrThrow({ where: { operatorId: op.id }, select: { id: true } });
    expect(session.id).toBe(sessionIdOf(cookie.split('=')[1]!));
  });

  test('over https (a trusted proxy says so) the cookie is Secure too', async () => {
    const op = await operatorWithPassword();
    const answer = await signIn(op.email, op.password, newIp(), { 'x-forwarded-proto': 'https' });
    expect(answer.headers.get('set-cookie')).toMatch(/; HttpOnly; SameSite=Strict; Path=\/; Max-Age=604800; Secure$/);
    cookieOf(answer);
  });

  test('a wrong password, an unknown email and a pending invitation get the same answer, after the same scrypt work', async () => {
    const op = await operatorWithPassword();
    const invited = `invited-${randomUUID().slice(0, 8)}@example.test`;
    await heed.services.db.operator.create({ data: { email: invited, name: 'Invited', role: 'agent' } });
    const ip = newIp();
    const timed = async (email: string) => {
      const started = performance.now();
      const answer = await signIn(email, 'not-the-password-123', ip);
      return { answer, ms: performance.now() - started };
    };
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[1]!;
    const unknownEmail = `nobody-${randomUUID().slice(0, 8)}@example.test`;
    const rounds: Record<'wrong' | 'unknown' | 'pending', { answer: RawAnswer; ms: number }[]> = { wrong: [], unknown: [], pending: [] };
    // interleaved, so a burst of load on the shared machine hits all three alike
    for (let i = 0; i < 3; i++) {
      rounds.wrong.push(await timed(op.email));
      rounds.unknown.push(await timed(unknownEmail));
      rounds.pending.push(await timed(invited));
    }
    for (const { answer } of Object.values(rounds).flat()) {
      expect(answer.status).toBe(401);
      expect(answer.headers.get('set-cookie')).toBeNull();
      expect({ reason: reasonOf(answer), message: answer.body.error?.message }).toEqual({
        reason: 'bad_credentials',
        message: 'Wrong email or password.',
      });
    }
    // scrypt dominates (~300 ms here; a lookup takes ~1 ms): without the dummy hash an unknown email would answer ~100× faster
    const [wrong, unknown, pending] = (['wrong', 'unknown', 'pending'] as const).map((k) => median(rounds[k].map((r) => r.ms)));
    expect(unknown).toBeGreaterThan(wrong! * 0.3);
    expect(pending).toBeGreaterThan(wrong! * 0.3);
  }, 90_000);

  test(`after ${SIGN_IN_LIMITS.perEmail.points} failed attempts on one email, sign-in is refused with a retry time, even with the right password`, async () => {
    const op = await operatorWithPassword();
    const ip = newIp();
    // a burst of parallel guesses: every attempt is counted before its password is checked, so exactly the limit get through
    const burst = await Promise.all(
      Array.from({ length: SIGN_IN_LIMITS.perEmail.points + 3 }, (_, i) => signIn(op.email, `wrong-${i}-password`, ip)),
    );
    const reasons = burst.map(reasonOf);
    expect(reasons.filter((r) => r === 'bad_credentials')).toHaveLength(SIGN_IN_LIMITS.perEmail.points);
    expect(reasons.filter((r) => r === 'sign_in_throttled')).toHaveLength(3);
    // from any address: the count is per email
    const refused = await signIn(op.email, op.password, newIp());
    expect(refused.status).toBe(429);
    expect(reasonOf(refused)).toBe('sign_in_throttled');
    expect(refused.body.error?.data.retryAfterMs).toBeGreaterThan(0);
    expect(refused.body.error?.data.retryAfterMs).toBeLessThanOrEqual(SIGN_IN_LIMITS.perEmail.seconds * 1000);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('set-cookie')).toBeNull();
  }, 90_000);

  test('a successful sign-in clears its email’s failures: an operator who mistypes now and then is never slowed', async () => {
    const op = await operatorWithPassword();
    const ip = newIp();
    const almost = SIGN_IN_LIMITS.perEmail.points - 1;
    for (let i = 0; i < almost; i++) await signIn(op.email, `typo-${i}-password`, ip);
    cookieOf(await signIn(op.email, op.password, ip));
    for (let i = 0; i < almost; i++) expect(reasonOf(await signIn(op.email, `typo-again-${i}`, ip))).toBe('bad_credentials');
    expect((await signIn(op.email, op.password, ip)).status).toBe(200);
  }, 90_000);

  test(`one address trying many emails is refused after ${SIGN_IN_LIMITS.perIp.points} attempts`, async () => {
    const ip = newIp();
    const op = await operatorWithPassword();
    const guesses = Array.from({ length: SIGN_IN_LIMITS.perIp.points }, (_, i) => `guess-${i}-${randomUUID().slice(0, 6)}@example.test`);
    const answers = await Promise.all(guesses.map((email) => signIn(email, 'password-guess-1', ip)));
    expect(answers.map(reasonOf)).toEqual(guesses.map(() => 'bad_credentials'));
    expect(reasonOf(await signIn(op.email, op.password, ip))).toBe('sign_in_throttled');
    // another address is not affected
    expect((await signIn(op.email, op.password, newIp())).status).toBe(200);
  }, 90_000);

  test('sign-in from another site’s page is refused before any password is checked (no login CSRF)', async () => {
    const op = await operatorWithPassword();
    for (const headers of [{ origin: 'https://evil.example' }, { origin: 'null' }]) {
      const answer = await signIn(op.email, op.password, newIp(), headers);
      expect([answer.status, reasonOf(answer)]).toEqual([403, 'console_origin']);
      expect(answer.headers.get('set-cookie')).toBeNull();
    }
    const noOrigin = await rawCall(heed.url, 'console.auth.signIn', 'mutation', { email: op.email, password: op.password });
    expect([noOrigin.status, reasonOf(noOrigin)]).toEqual([403, 'console_origin']);
  });
});

describe('sessions', () => {
  test('a signed-out browser gets null from me and UNAUTHORIZED console_signed_out from every console procedure that needs a session', async () => {
    expect(await consoleClient(heed.url, null).console.auth.me.query()).toBeNull();
    const open = new Set(['console.auth.signIn', 'console.auth.signOut', 'console.auth.me', 'console.auth.acceptInvite']);
    const checked: string[] = [];
    for (const { path, type } of consoleProcedures()) {
      if (open.has(path)) continue;
      for (const cookie of [undefined, 'heed_console=not-a-real-session-token-000000000000']) {
        const answer = await rawCall(heed.url, path, type, {}, { origin: heed.url, ...(cookie ? { cookie } : {}) });
        expect([path, answer.body.error?.data.code, reasonOf(answer)]).toEqual([path, 'UNAUTHORIZED', 'console_signed_out']);
        if (type !== 'subscription') expect(answer.status).toBe(401);
      }
      checked.push(path);
    }
    expect(checked).toEqual(expect.arrayContaining(['console.sites.create', 'console.operators.invite', 'console.sites.list']));
  });

  test('every console mutation from another origin (or none) is FORBIDDEN console_origin, even with a live session, and changes nothing', async () => {
    const owner = await signedInOperator(heed.services, heed.url, { role: 'owner' });
    const before = await heed.services.db.site.count();
    const mutations = consoleProcedures().filter((p) => p.type === 'mutation');
    expect(mutations.length).toBeGreaterThan(5);
    for (const { path } of mutations) {
      for (const origin of ['https://evil.example', `${heed.url}.evil.example`, undefined]) {
        const answer = await rawCall(heed.url, path, 'mutation', {}, { cookie: owner.cookie, ...(origin ? { origin } : {}) });
        expect([path, answer.status, reasonOf(answer)]).toEqual([path, 403, 'console_origin']);
      }
    }
    expect(await heed.services.db.site.count()).toBe(before);
    expect(await owner.api.console.auth.me.query()).not.toBeNull(); // not signed out by the attempts either
  });

  test('sign-out ends this session everywhere and clears the cookie; the operator’s other sessions live on', async () => {
    const op = await operatorWithPassword();
    const ip = newIp();
    const laptop = cookieOf(await signIn(op.email, op.password, ip));
    const phone = cookieOf(await signIn(op.email, op.password, ip));
    const out = await rawCall(heed.url, 'console.auth.signOut', 'mutation', undefined, { origin: heed.url, cookie: laptop });
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toBe('heed_console=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0');
    // the old cookie, replayed, is signed out
    expect(await consoleClient(heed.url, laptop).console.auth.me.query()).toBeNull();
    const replay = await rawCall(heed.url, 'console.sites.list', 'query', undefined, { cookie: laptop });
    expect([replay.status, reasonOf(replay)]).toEqual([401, 'console_signed_out']);
    expect(await consoleClient(heed.url, phone).console.sites.list.query()).toEqual(expect.any(Array));
    // signing out twice is harmless
    expect((await rawCall(heed.url, 'console.auth.signOut', 'mutation', undefined, { origin: heed.url, cookie: laptop })).status).toBe(200);
  });

  test('an expired session is signed out; a used one slides forward and me renews the cookie', async () => {
    const op = await operatorWithPassword();
    const cookie = cookieOf(await signIn(op.email, op.password, newIp()));
    const id = sessionIdOf(cookie.split('=')[1]!);
    // used a while ago: the next request slides the expiry a full week ahead
    await heed.services.db.operatorSession.update({
      where: { id },
      data: { lastSeenAt: new Date(Date.now() - 3600_000), expiresAt: new Date(Date.now() + 60_000) },
    });
    const renewed = await rawCall(heed.url, 'console.auth.me', 'query', undefined, { cookie });
    expect(renewed.headers.get('set-cookie')).toMatch(/^heed_console=[\w-]+; HttpOnly; SameSite=Strict; Path=\/; Max-Age=604800$/);
    const slid = await heed.services.db.operatorSession.findUniqueOrThrow({ where: { id }, select: { expiresAt: true } });
    expect(slid.expiresAt.getTime()).toBeGreaterThan(Date.now() + 6 * 24 * 3600_000);

    await heed.services.db.operatorSession.update({ where: { id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await consoleClient(heed.url, cookie).console.auth.me.query()).toBeNull();
    const refused = await rawCall(heed.url, 'console.operators.list', 'query', undefined, { cookie });
    expect([refused.status, reasonOf(refused)]).toEqual([401, 'console_signed_out']);
  });
});

describe('bad input', () => {
  test('malformed sign-in and invitation inputs answer 400 (or 401/403/429), never 5xx, and name the field', async () => {
    const bad = await signIn('not-an-email', 'x', newIp());
    expect(bad.status).toBe(400);
    expect(bad.body.error?.data.fieldErrors?.email).toBeDefined();
    const anything = fc.oneof(
      fc.string(),
      fc.integer(),
      fc.constant(null),
      fc.constant('\u0000'),
      fc.string({ minLength: 300, maxLength: 400 }),
      fc.object(),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          { email: anything, password: anything, token: anything, name: anything, extra: fc.option(anything) },
          { requiredKeys: [] },
        ),
        async (input) => {
          for (const path of ['console.auth.signIn', 'console.auth.acceptInvite']) {
            const answer = await rawCall(heed.url, path, 'mutation', input, { origin: heed.url, 'x-forwarded-for': '198.51.100.7' });
            expect(answer.status, `${path} ${JSON.stringify(input)}`).toBeLessThan(500);
          }
        },
      ),
      { numRuns: 60, seed: fuzzSeed('console auth') },
    );
    for (const body of ['{', '"just a string"', '[]', 'null']) {
      const res = await fetch(`${heed.url}/trpc/console.auth.signIn`, {
        method: 'POST',
        headers: { origin: heed.url, 'content-type': 'application/json' },
        body,
      });
      expect(res.status).toBeLessThan(500);
    }
  });
});

test('no password, session token or session id reaches a log line', async () => {
  expect(secrets.length).toBeGreaterThan(10);
  const log = heed.logs.join('\n');
  for (const secret of secrets) {
    expect(log).not.toContain(secret);
    if (/^[\w-]{43}$/.test(secret)) expect(log).not.toContain(sessionIdOf(secret));
  }
});
