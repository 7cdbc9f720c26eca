import { describe, expect, test } from 'vitest';
import { signVisitorToken, verifyVisitorToken } from './visitor-token.ts';

const SECRET = 'test-secret-for-visitor-tokens';
const claims = { visitorId: '7b0e7a1e-2a4c-4d59-9f43-5f0f5a6c1b11', siteId: '0c1f3f0e-98a4-4c8e-8f5e-3e2b3a9d7c22' };
const otherId = 'f3f6e5d4-1111-4222-8333-944455566677';

describe('visitor tokens', () => {
  test('a signed token verifies back to the same visitor and site', () => {
    const token = signVisitorToken(SECRET, claims);
    expect(verifyVisitorToken(SECRET, token)).toEqual(claims);
  });

  test('signing is deterministic: the same visitor keeps the same token', () => {
    expect(signVisitorToken(SECRET, claims)).toBe(signVisitorToken(SECRET, claims));
  });

  test('swapping in another visitor id or site id keeps the signature but is rejected', () => {
    const [v, visitorId, siteId, mac] = signVisitorToken(SECRET, claims).split('.');
    expect(visitorId).toBe(claims.visitorId);
    expect(verifyVisitorToken(SECRET, [v, otherId, siteId, mac].join('.'))).toBeNull();
    expect(verifyVisitorToken(SECRET, [v, visitorId, otherId, mac].join('.'))).toBeNull();
    expect(verifyVisitorToken(SECRET, [v, siteId, visitorId, mac].join('.'))).toBeNull();
  });

  test('a token with an altered signature is rejected', () => {
    const token = signVisitorToken(SECRET, claims);
    const mac = token.split('.')[3]!;
    const flipped = (mac[0] === 'A' ? 'B' : 'A') + mac.slice(1);
    expect(verifyVisitorToken(SECRET, token.replace(mac, flipped))).toBeNull();
    expect(verifyVisitorToken(SECRET, token.replace(mac, mac.slice(0, -1)))).toBeNull();
    expect(verifyVisitorToken(SECRET, token.replace(mac, `${mac}A`))).toBeNull();
    expect(verifyVisitorToken(SECRET, token.replace(mac, ''))).toBeNull();
  });

  test('a token signed with another secret (another deployment) is rejected', () => {
    const token = signVisitorToken('some-other-deployment-secret', claims);
    expect(verifyVisitorToken(SECRET, token)).toBeNull();
  });

  test('garbage of any shape is rejected without throwing', () => {
    const mac = signVisitorToken(SECRET, claims).split('.')[3]!;
    for (const garbage of [
      '',
      'not-a-token',
      'v1',
      'v1...',
      `v2.${claims.visitorId}.${claims.siteId}.${mac}`,
      `${claims.visitorId}.${claims.siteId}.${mac}`,
      `v1.${claims.visitorId}.${claims.siteId}.${mac}.extra`,
      `v1.${claims.visitorId}.${claims.siteId}.${'é'.repeat(43)}`,
      'Bearer v1.a.b.c',
    ]) {
      expect(verifyVisitorToken(SECRET, garbage), garbage).toBeNull();
    }
  });
});
