import { expect, test } from 'vitest';
import { isPublicAddress } from './ip-ranges.ts';

test('public addresses pass; loopback, private, link-local, metadata, mapped and odd forms do not', () => {
  for (const ok of ['93.184.215.14', '8.8.8.8', '2606:4700::1111', '172.32.0.1', '100.128.0.1'])
    expect([ok, isPublicAddress(ok)]).toEqual([ok, true]);
  for (const no of [
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '::1',
    '::',
    'fd00::1',
    'fe80::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '64:ff9b::a00:1',
    'localhost',
    '',
  ])
    expect([no, isPublicAddress(no)]).toEqual([no, false]);
});
