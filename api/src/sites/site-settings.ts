import { randomBytes } from 'node:crypto';
import { Prisma, type Db } from '../db/client.ts';
import { refuse } from '../errors/refusal.ts';
import { readGreetings, type Greetings } from '../shared/greetings.ts';
import type { SiteSettingsChange } from './site-settings-input.ts';

/** What the console reads of a site: every column but the secrets' values and the limits. */
const SETTINGS_SELECT = {
  id: true,
  key: true,
  name: true,
  allowedOrigins: true,
  requireIdentity: true,
  /** read only to be counted: the values never leave this module */
  identitySecrets: true,
  assistantName: true,
  greeting: true,
  greetings: true,
  accentColor: true,
  launcherPosition: true,
  systemPrompt: true,
  model: true,
  replyMaxTokens: true,
  handoffEnabled: true,
  autoAssign: true,
  shareVisitorPages: true,
  checkInAfterMinutes: true,
  unsolicitedPerDay: true,
  attachmentKinds: true,
  attachmentMaxBytes: true,
  attachmentMessageMaxBytes: true,
  retentionDays: true,
  retentionSweptAt: true,
  retentionSweptCount: true,
  createdAt: true,
} as const satisfies Prisma.SiteSelect;

type SettingsRow = Prisma.SiteGetPayload<{ select: typeof SETTINGS_SELECT }>;

/** `SiteSettings` as the console shows it: how many identity secrets exist (never their values) and the embed snippet. */
export type SiteSettings = Omit<SettingsRow, 'identitySecrets' | 'greetings'> & {
  identitySecrets: number;
  greetings: Greetings | null;
  snippet: string;
};

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The script tag a site owner pastes into their pages, loading the widget from `baseUrl`
 * (PUBLIC_URL, or the console's own origin).
 * @example embedSnippet('https://heed.example/', 'shop') // '<script src="https://heed.example/widget.js" data-site="shop" async></script>'
 */
export function embedSnippet(baseUrl: string, key: string): string {
  return `<script src="${escapeAttr(new URL('widget.js', baseUrl).href)}" data-site="${escapeAttr(key)}" async></script>`;
}

function toSettings(row: SettingsRow, baseUrl: string): SiteSettings {
  const { identitySecrets, greetings, ...rest } = row;
  return { ...rest, identitySecrets: identitySecrets.length, greetings: readGreetings(greetings), snippet: embedSnippet(baseUrl, row.key) };
}

/** One site's settings, or null when there is no such site. */
export async function readSiteSettings(db: Db, siteId: string, baseUrl: string): Promise<SiteSettings | null> {
  const row = await db.site.findUnique({ where: { id: siteId }, select: SETTINGS_SELECT });
  return row ? toSettings(row, baseUrl) : null;
}

/** `Ana's Shop!` → `anas-shop-k3x9q2`: readable, and unique enough that a clash is a retry, not a form error. */
export function generatedSiteKey(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '') // é → e: the accents NFKD split off
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  const suffix = randomBytes(6)
    .toString('base64url')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '')
    .slice(0, 6)
    .padEnd(6, '0');
  return `${slug || 'site'}-${suffix}`;
}

const isUniqueViolation = (err: unknown) => (err as { code?: string }).code === 'P2002';

/**
 * Creates a site. A chosen key that exists is `site_key_taken` (409); a generated one that
 * clashes is generated again.
 */
export async function createSite(
  db: Db,
  input: SiteSettingsChange & { name: string; key?: string },
  baseUrl: string,
): Promise<SiteSettings> {
  for (let attempt = 0; ; attempt++) {
    const key = input.key ?? generatedSiteKey(input.name);
    try {
      const row = await db.site.create({ data: { ...columns(input), key }, select: SETTINGS_SELECT });
      return toSettings(row, baseUrl);
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      if (input.key !== undefined || attempt >= 3)
        throw refuse('conflict', 'site_key_taken', 'A site with this key exists already: choose another key.');
    }
  }
}

/** A change as the site's columns take it: no greetings is SQL NULL, not JSON `null`. */
function columns<T extends SiteSettingsChange>(change: T) {
  return change.greetings === undefined ? { ...change, greetings: undefined } : { ...change, greetings: change.greetings ?? Prisma.DbNull };
}

/** Changes the settings `change` names; null when there is no such site. */
export async function updateSite(db: Db, siteId: string, change: SiteSettingsChange, baseUrl: string): Promise<SiteSettings | null> {
  const { count } = await db.site.updateMany({ where: { id: siteId }, data: columns(change) });
  return count === 0 ? null : readSiteSettings(db, siteId, baseUrl);
}
