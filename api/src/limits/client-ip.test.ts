import { describe, expect, it } from 'vitest';
import { clientIp, limitKeyOf } from './client-ip.ts';

const req = (remoteAddress: string, xff?: string) =>
  ({ socket: { remoteAddress }, headers: xff ? { 'x-forwarded-for': xff } : {} }) as never;

describe('clientIp', () => {
  it('is the socket address unless proxies are trusted: a client can write X-Forwarded-For', () => {
    expect(clientIp(req('10.0.0.5', '1.2.3.4'), 0)).toBe('10.0.0.5');
  });

  it('behind N trusted proxies, is the N-th X-Forwarded-For entry from the right', () => {
    expect(clientIp(req('10.0.0.5', '6.6.6.6, 1.2.3.4'), 1)).toBe('1.2.3.4');
    expect(clientIp(req('10.0.0.5', '6.6.6.6, 1.2.3.4, 10.0.0.4'), 2)).toBe('1.2.3.4');
    expect(clientIp(req('10.0.0.5', '6.6.6.6'), 3)).toBe('6.6.6.6');
    expect(clientIp(req('10.0.0.5'), 1)).toBe('10.0.0.5');
  });

  it('counts IPv4-mapped addresses as IPv4 and IPv6 per /64', () => {
    expect(clientIp(req('::ffff:127.0.0.1'), 0)).toBe('127.0.0.1');
    expect(limitKeyOf('2001:db8:abcd:12:1:2:3:4')).toBe('2001:db8:abcd:12::/64');
    expect(limitKeyOf('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(limitKeyOf('[2001:db8:abcd:12::ffff]')).toBe(limitKeyOf('2001:db8:abcd:12:9:9:9:9'));
    expect(limitKeyOf('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });
});
