import { createHmac } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { signingKeys } from './signing-keys.ts';
import { issueStreamTicket, verifyStreamTicket } from './stream-ticket.ts';
import { signVisitorToken, verifyVisitorToken } from './visitor-token.ts';

const keys = signingKeys({ HEED_SECRET: 'test-secret-for-visitor-tokens' });
const claims = { visitorId: '7b0e7a1e-2a4c-4d59-9f43-5f0f5a6c1b11', siteId: '0c1f3f0e-98a4-4c8e-8f5e-3e2b3a9d7c22' };
const otherId = 'f3f6e5d4-1111-4222-8333-944455566677';
const DAY = 24 * 60 * 60 * 1000;
const sign = (k = keys, now = Date.now()) => signVisitorToken(k, claims, { ttlMs: 30 * DAY, now });

describe('visitor tokens', () => {
  test('a signed token verifies back to the same visitor and site', () => {
    expect(verifyVisitorToken(keys, sign())).toEqual(claims);
  });

  test('a token names its key by id, never the secret itself', () => {
    const token = sign();
    expect(token.split('.')[1]).toBe(keys.current.kid);
    expect(token).not.toContain('test-secret');
  });

  test('swapping in another visitor id or site id keeps the signature but is rejected', () => {
    const [v, kid, visitorId, siteId, exp, mac] = sign().split('.');
    expect(verifyVisitorToken(keys, [v, kid, otherId, siteId, exp, mac].join('.'))).toBeNull();
    expect(verifyVisitorToken(keys, [v, kid, visitorId, otherId, exp, mac].join('.'))).toBeNull();
    expect(verifyVisitorToken(keys, [v, kid, siteId, visitorId, exp, mac].join('.'))).toBeNull();
  });

  test('stretching the expiry breaks the signature', () => {
    const [v, kid, visitorId, siteId, exp, mac] = sign().split('.');
    expect(verifyVisitorToken(keys, [v, kid, visitorId, siteId, String(Number(exp) + 3600), mac].join('.'))).toBeNull();
  });

  test('a token expires after its TTL', () => {
    const issued = Date.now() - 31 * DAY;
    expect(verifyVisitorToken(keys, sign(keys, issued))).toBeNull();
    expect(verifyVisitorToken(keys, sign(keys, issued), { now: issued + 29 * DAY })).toEqual(claims);
  });

  test('a rotation keeps tokens of the previous secret valid; a third secret is refused', () => {
    const old = signingKeys({ HEED_SECRET: 'the-secret-before-rotation' });
    const rotated = signingKeys({ HEED_SECRET: 'the-secret-after-rotation-1', HEED_SECRET_PREVIOUS: 'the-secret-before-rotation' });
    const oldToken = sign(old);
    expect(verifyVisitorToken(rotated, oldToken)).toEqual(claims);
    // new tokens are signed with the new secret only
    expect(verifyVisitorToken(old, sign(rotated))).toBeNull();
    expect(verifyVisitorToken(signingKeys({ HEED_SECRET: 'the-secret-after-rotation-1' }), oldToken)).toBeNull();
  });

  test('a token signed with another secret (another deployment) is rejected', () => {
    expect(verifyVisitorToken(keys, sign(signingKeys({ HEED_SECRET: 'some-other-deployment-secret' })))).toBeNull();
  });

  test('v1 tokens (no expiry) are accepted only where asked for, to resume and upgrade', () => {
    const body = `v1.${claims.visitorId}.${claims.siteId}`;
    const v1 = `${body}.${createHmac('sha256', keys.current.secret).update(body).digest('base64url')}`;
    expect(verifyVisitorToken(keys, v1)).toBeNull();
    expect(verifyVisitorToken(keys, v1, { legacy: true })).toEqual(claims);
  });

  test('garbage of any shape is rejected without throwing', () => {
    const mac = sign().split('.')[5]!;
    for (const garbage of [
      '',
      'not-a-token',
      'v2',
      'v2.....',
      `v2.${keys.current.kid}.${claims.visitorId}.${claims.siteId}.1e3.${mac}`,
      `v3.${keys.current.kid}.${claims.visitorId}.${claims.siteId}.9999999999.${mac}`,
      `v2.${keys.current.kid}.${claims.visitorId}.${claims.siteId}.9999999999.${mac}.extra`,
      `v2.${keys.current.kid}.${claims.visitorId}.${claims.siteId}.9999999999.${'é'.repeat(43)}`,
      'Bearer v2.a.b.c.d.e',
      'x'.repeat(10_000),
    ]) {
      expect(verifyVisitorToken(keys, garbage), garbage).toBeNull();
    }
  });
});

describe('stream tickets', () => {
  test('a ticket verifies to its visitor until it expires', () => {
    const now = Date.now();
    const ticket = issueStreamTicket(keys, claims, { ttlMs: 120_000, now });
    expect(verifyStreamTicket(keys, ticket, { now })).toEqual(claims);
    expect(verifyStreamTicket(keys, ticket, { now: now + 121_000 })).toBeNull();
  });

  test('tickets and visitor tokens are not interchangeable', () => {
    expect(verifyStreamTicket(keys, sign())).toBeNull();
    expect(verifyVisitorToken(keys, issueStreamTicket(keys, claims, { ttlMs: 60_000 }))).toBeNull();
  });

  test('two tickets for the same visitor differ, and a tampered one is refused', () => {
    const a = issueStreamTicket(keys, claims, { ttlMs: 60_000 });
    expect(a).not.toBe(issueStreamTicket(keys, claims, { ttlMs: 60_000 }));
    const parts = a.split('.');
    parts[2] = otherId;
    expect(verifyStreamTicket(keys, parts.join('.'))).toBeNull();
    expect(verifyStreamTicket(keys, 42)).toBeNull();
  });
});
