import { describe, expect, it } from 'vitest';
import { addressKey, clientAddressKey } from './address-key.ts';

const SECRET = 'a-test-secret-of-enough-length';
const req = (remoteAddress: string, xff?: string) =>
  ({ socket: { remoteAddress }, headers: xff ? { 'x-forwarded-for': xff } : {} }) as never;

describe('addressKey', () => {
  it('is a short keyed hash: the same for the same address, never the address itself', () => {
    const key = addressKey(SECRET, '203.0.113.7');
    expect(key).toMatch(/^[\w-]{22}$/);
    expect(addressKey(SECRET, '203.0.113.7')).toBe(key);
    expect(addressKey(SECRET, '203.0.113.8')).not.toBe(key);
    expect(key).not.toContain('203');
  });

  it('depends on the deployment’s secret, so a key cannot be matched against guesses without it', () => {
    expect(addressKey(`${SECRET}-other`, '203.0.113.7')).not.toBe(addressKey(SECRET, '203.0.113.7'));
  });
});

describe('clientAddressKey', () => {
  it('hashes the address clientIp finds: the trusted proxy’s entry, IPv6 per /64', () => {
    const config = { HEED_SECRET: SECRET, TRUST_PROXY: 1 };
    expect(clientAddressKey(req('10.0.0.5', '6.6.6.6, 203.0.113.7'), config)).toBe(addressKey(SECRET, '203.0.113.7'));
    expect(clientAddressKey(req('10.0.0.5', '203.0.113.7'), { ...config, TRUST_PROXY: 0 })).toBe(addressKey(SECRET, '10.0.0.5'));
    expect(clientAddressKey(req('2001:db8:abcd:12::1'), config)).toBe(clientAddressKey(req('2001:db8:abcd:12:9:9:9:9'), config));
  });
});
