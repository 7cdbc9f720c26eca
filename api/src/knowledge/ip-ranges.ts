import { isIP } from 'node:net';

/**
 * Whether `address` (an IPv4 or IPv6 literal, as DNS answers it) is one a crawl must not reach:
 * loopback, private (RFC 1918, unique local), link-local (cloud metadata lives at 169.254.169.254),
 * carrier-grade NAT, multicast, reserved or unspecified; IPv4 inside IPv6 (`::ffff:10.0.0.1`) is
 * judged as the IPv4 it holds. Anything that is not an IP literal counts as not public.
 * @example isPublicAddress('93.184.215.14') // true
 * @example isPublicAddress('::ffff:127.0.0.1') // false
 */
export function isPublicAddress(address: string): boolean {
  const kind = isIP(address);
  if (kind === 4) return isPublicV4(address);
  if (kind === 6) return isPublicV6(address.toLowerCase());
  return false;
}

function isPublicV4(address: string): boolean {
  const [a = 0, b = 0] = address.split('.').map(Number);
  if (a === 0 || a === 10 || a === 127 || a >= 224) return false; // this network, private, loopback, multicast and reserved
  if (a === 169 && b === 254) return false; // link-local
  if (a === 172 && b >= 16 && b <= 31) return false;
  if (a === 192 && b === 168) return false;
  if (a === 100 && b >= 64 && b <= 127) return false; // carrier-grade NAT
  if (a === 192 && b === 0) return false; // IETF protocol assignments and documentation
  if (a === 198 && (b === 18 || b === 19)) return false; // benchmarking
  return true;
}

function isPublicV6(address: string): boolean {
  const mapped = /^(?:0*:)*:?ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(address) ?? /^::(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (mapped) return isPublicV4(mapped[1]!);
  if (address === '::' || address === '::1') return false;
  const first = Number.parseInt(address.split(':')[0] || '0', 16);
  if ((first & 0xfe00) === 0xfc00) return false; // unique local fc00::/7
  if ((first & 0xffc0) === 0xfe80) return false; // link-local fe80::/10
  if ((first & 0xff00) === 0xff00) return false; // multicast
  if (address.startsWith('64:ff9b:')) return false; // NAT64 reaches IPv4, private ones included
  if (address.startsWith('2001:db8:')) return false; // documentation
  return true;
}
