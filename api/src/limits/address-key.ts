import type { IncomingMessage } from 'node:http';
import { mac } from '../auth/signing-keys.ts';
import { clientIp } from './client-ip.ts';

/** Length of an address key: 22 base64url characters, 132 bits of the MAC (collisions across a deployment's addresses are out of reach). */
const KEY_CHARS = 22;

/**
 * What per-address limits count and Redis stores instead of a client's address: a keyed
 * hash (HMAC-SHA256 under the deployment's secret, with its own purpose label, truncated).
 * The same address always gives the same key, so limits count exactly as they would by the
 * address; but a key read out of Redis, a dump or a backup names nobody, and without the
 * secret no one can test guesses against it (an unkeyed hash of the 2^32 IPv4 addresses is
 * reversed in minutes). Rotating `HEED_SECRET` starts every address's windows afresh once.
 * @example addressKey(config.HEED_SECRET, '203.0.113.7') // 'q3Yv…' (22 characters)
 */
export function addressKey(secret: string, address: string): string {
  return mac(secret, 'heed-client-address', address).slice(0, KEY_CHARS);
}

/**
 * A request's address key: its client address as `clientIp` finds it (X-Forwarded-For only
 * behind `TRUST_PROXY` proxies; IPv6 per /64), hashed at once, so the address itself goes no
 * further than this call. The one place requests get the value per-address limits count by.
 * @example const ip = clientAddressKey(req, services.config); await services.limits.send(visitor, ip)
 */
export function clientAddressKey(
  req: Pick<IncomingMessage, 'headers' | 'socket'>,
  config: { TRUST_PROXY: number; HEED_SECRET: string },
): string {
  return addressKey(config.HEED_SECRET, clientIp(req, config.TRUST_PROXY));
}
