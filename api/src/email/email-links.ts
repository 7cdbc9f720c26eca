import type { Config } from '../config.ts';
import type { SigningKeys } from '../auth/signing-keys.ts';
import { signUnsubscribeToken, type Unsubscriber } from './unsubscribe-token.ts';

/** The path of the unsubscribe route (http/email-unsubscribe.ts). */
export const UNSUBSCRIBE_PATH = '/email/unsubscribe';

/**
 * The API's base URL in an email, ending in `/`: PUBLIC_URL, else `http://HOST:PORT/` (a
 * wildcard HOST as loopback). An email is written by a worker, with no request to read a host
 * from: a deployment behind a proxy or on another host sets PUBLIC_URL.
 * @example emailBaseUrl(config) // 'https://chat.example/'
 */
export function emailBaseUrl(config: Pick<Config, 'PUBLIC_URL' | 'HOST' | 'PORT'>): string {
  if (config.PUBLIC_URL) return config.PUBLIC_URL;
  const host = config.HOST === '0.0.0.0' || config.HOST === '::' || config.HOST === '' ? '127.0.0.1' : config.HOST;
  return `http://${host.includes(':') ? `[${host}]` : host}:${config.PORT}/`;
}

/** A conversation in the console, as its router names it (`#/conversations/<id>`). */
export const consoleConversationUrl = (base: string, conversationId: string) =>
  `${base}admin/#/conversations/${encodeURIComponent(conversationId)}`;

/** The signed link that stops emails to `who`, and the headers that offer it to mail clients (RFC 2369, RFC 8058). */
export function unsubscribeOf(base: string, keys: SigningKeys, who: Unsubscriber): { url: string; headers: Record<string, string> } {
  const url = `${base}${UNSUBSCRIBE_PATH.slice(1)}?t=${encodeURIComponent(signUnsubscribeToken(keys, who))}`;
  return { url, headers: { 'List-Unsubscribe': `<${url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } };
}
