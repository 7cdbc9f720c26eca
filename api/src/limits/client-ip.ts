import type { IncomingMessage } from 'node:http';
import { isIPv6 } from 'node:net';

/**
 * The address a request's per-address limits count against. With `trustedProxies` 0 (the
 * default) it is the socket's peer and `X-Forwarded-For` is ignored: anyone can write that
 * header, so trusting it without a proxy lets every request pick a fresh address. Behind N
 * proxies that each append the address they received from, the client is the N-th entry
 * from the right (entries further left were written by the client itself).
 *
 * IPv6 clients are counted per /64: one subscriber usually holds a whole /64, so counting
 * single addresses would give them 2^64 budgets.
 *
 * The answer is the client's address itself: nothing may store or log it. Requests take
 * `clientAddressKey` (address-key.ts), which hashes it at once.
 * @example clientIp(req, 1) // behind one proxy: the last X-Forwarded-For entry
 */
export function clientIp(req: Pick<IncomingMessage, 'headers' | 'socket'>, trustedProxies: number): string {
  const socket = req.socket.remoteAddress ?? 'unknown';
  if (trustedProxies <= 0) return limitKeyOf(socket);
  const header = req.headers['x-forwarded-for'];
  const forwarded = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  // the hop chain, nearest first: our socket peer, then what each trusted proxy saw
  const chain = [socket, ...forwarded.reverse()];
  return limitKeyOf(chain[Math.min(trustedProxies, chain.length - 1)]!);
}

/** `::ffff:1.2.3.4` → `1.2.3.4`; an IPv6 address → its /64 (`2001:db8:0:1::/64`); anything else as is. */
export function limitKeyOf(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (!isIPv6(bare)) return address.slice(0, 64);
  const [head = '', tail = ''] = bare.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = bare.includes('::') ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}
