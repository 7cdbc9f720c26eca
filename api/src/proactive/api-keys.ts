import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../db/client.ts';

/** Every site API key starts with this, so a leaked one is recognisable (secret scanners, logs). */
export const API_KEY_PREFIX = 'heed_sk_';
/** Characters of the key kept (beside its hash) to tell keys apart in the console. */
export const API_KEY_SHOWN = 12;

/** Only the hash is stored: a leaked database row cannot be replayed as a key. */
export const apiKeyHash = (key: string): string => createHash('sha256').update(key).digest('hex');

/** A site API key as the console lists it (never the key itself). */
export interface ApiKeyView {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

const keySelect = { id: true, name: true, prefix: true, createdAt: true, lastUsedAt: true, revokedAt: true } as const;

const toView = (k: {
  id: string;
  name: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}): ApiKeyView => ({
  ...k,
  createdAt: k.createdAt.toISOString(),
  lastUsedAt: k.lastUsedAt?.toISOString() ?? null,
  revokedAt: k.revokedAt?.toISOString() ?? null,
});

/** A site's keys, newest first, revoked ones included (the console shows them struck out). */
export async function listApiKeys(db: Db, siteId: string): Promise<ApiKeyView[]> {
  const rows = await db.siteApiKey.findMany({ where: { siteId }, select: keySelect, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
  return rows.map(toView);
}

/**
 * A new key for the site's server: `heed_sk_` + 32 random bytes (base64url). Answered this
 * once; only its sha256 and its first characters are kept. Null when the site does not exist.
 */
export async function createApiKey(
  db: Db,
  siteId: string,
  name: string,
): Promise<(Omit<ApiKeyView, 'lastUsedAt' | 'revokedAt'> & { key: string }) | null> {
  if ((await db.site.count({ where: { id: siteId } })) === 0) return null;
  const key = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  const row = await db.siteApiKey.create({
    data: { siteId, name, prefix: key.slice(0, API_KEY_SHOWN), hash: apiKeyHash(key) },
    select: { id: true, name: true, prefix: true, createdAt: true },
  });
  return { ...row, createdAt: row.createdAt.toISOString(), key };
}

/** Revokes one of the site's keys at once (every process: the lookup reads the row); false when there is none. */
export async function revokeApiKey(db: Db, siteId: string, id: string): Promise<boolean> {
  const found = await db.siteApiKey.count({ where: { id, siteId } });
  if (found === 0) return false;
  await db.siteApiKey.updateMany({ where: { id, siteId, revokedAt: null }, data: { revokedAt: new Date() } });
  return true;
}

/**
 * The key a `Bearer` header carries, if it is a live key of the site with this public key;
 * null otherwise, without saying why (unknown, revoked, or another site's look the same).
 */
export async function apiKeyFor(
  db: Db,
  siteKey: string,
  authorization: string | undefined,
): Promise<{ id: string; siteId: string; siteName: string } | null> {
  if (!authorization?.startsWith('Bearer ')) return null;
  const key = authorization.slice('Bearer '.length).trim();
  if (!key.startsWith(API_KEY_PREFIX) || key.length > 200) return null;
  // Looked up by hash: the comparison is the database's index, never a timing of our own on the secret.
  const row = await db.siteApiKey.findUnique({
    where: { hash: apiKeyHash(key) },
    select: { id: true, revokedAt: true, site: { select: { id: true, key: true, name: true } } },
  });
  if (!row || row.revokedAt || row.site.key !== siteKey) return null;
  return { id: row.id, siteId: row.site.id, siteName: row.site.name };
}
