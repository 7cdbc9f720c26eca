import { ATTACHMENT_KIND_NAMES, type AttachmentKind } from '../shared/attachment-kinds.ts';
import { z } from 'zod';
import { uuid } from '../inputs/fields.ts';
import { normalizeOrigin } from './origin-rule.ts';

/** Most origins one site may list: a site embeds on a handful of hosts, not hundreds. */
export const ALLOWED_ORIGINS_MAX = 50;

const controlChars = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
const lineBreaks = /[\r\n\u2028\u2029]/;

/** One line of text (names): trimmed, `min`–`max` characters, no control characters. */
const line = (max: number, min = 1) =>
  z
    .string()
    .max(max * 4)
    .transform((s) => s.trim())
    .pipe(
      z
        .string()
        .min(min, 'must not be empty')
        .max(max, `at most ${max} characters`)
        .refine((s) => !controlChars.test(s) && !lineBreaks.test(s), 'must be one line without control characters'),
    );

/** Text that may span lines (greeting, system prompt): at most `max` characters, no NUL or other control characters. */
const text = (max: number) =>
  z
    .string()
    .max(max, `at most ${max} characters`)
    .refine((s) => !controlChars.test(s), 'must not contain control characters')
    .transform((s) => s.trim());

/** An optional setting: `null` or blank clears it (the widget or the deployment default applies). */
const clearable = <T extends z.ZodType<string, string>>(schema: T) =>
  z.union([z.null(), schema]).transform((v) => (v === null || v === '' ? null : v));

/**
 * A new site's key, the `data-site` attribute of its script tag: 3–64 lower-case letters,
 * digits and `-`, starting with a letter or digit (older keys may be freer: see `siteKey`).
 */
export const newSiteKey = z
  .string()
  .trim()
  .regex(/^[a-z0-9][a-z0-9-]{2,63}$/, '3–64 lower-case letters, digits and -, starting with a letter or digit');

/**
 * One allowed origin, as `originAllowed` reads them: `https://shop.example`,
 * `http://localhost:3001`, or `https://*.shop.example` for every subdomain. Stored
 * normalized (lower case, no default port, no trailing slash); a path, query, user or a
 * wildcard over a bare top-level domain (`https://*.com`) is refused.
 */
export const allowedOrigin = z
  .string()
  .max(300)
  .transform((raw, ctx) => {
    const value = raw.trim();
    const wildcard = /^(https?):\/\/\*\.(.+)$/i.exec(value);
    const candidate = wildcard ? `${wildcard[1]}://${wildcard[2]}` : value;
    const origin = normalizeOrigin(candidate);
    const url = URL.canParse(candidate) ? new URL(candidate) : null;
    // a host name (or an IPv6 literal), the root path and nothing after it
    const bare =
      url !== null &&
      url.pathname === '/' &&
      !/[?#]/.test(candidate) &&
      (/^[a-z0-9.-]+$/.test(url.hostname) || url.hostname.startsWith('['));
    if (!origin || !bare || (wildcard && !url.hostname.includes('.'))) {
      ctx.addIssue({
        code: 'custom',
        message: `not an origin: use scheme://host[:port], e.g. https://shop.example or https://*.shop.example`,
      });
      return z.NEVER;
    }
    return wildcard ? origin.replace('://', '://*.') : origin;
  });

/** Most languages one site writes its own greeting in. */
export const GREETINGS_MAX = 30;

/**
 * The greeting by language: lower-case language codes (`de`, `pt`, `ar`: what the widget's
 * `data-locale` and the browser's first language pick) to the text, each like `greeting`. Blank
 * texts are dropped; no language at all clears it.
 */
const greetings = z
  .record(z.string().regex(/^[a-z]{2,3}$/, 'a language code such as de or pt'), text(500))
  .refine((g) => Object.keys(g).length <= GREETINGS_MAX, `at most ${GREETINGS_MAX} languages`)
  .transform((g) => Object.fromEntries(Object.entries(g).filter(([, t]) => t !== '')))
  .nullable()
  .transform((g) => (g && Object.keys(g).length > 0 ? g : null));

/** Every setting an owner edits, each optional (create takes defaults, update changes only what it names). */
export const siteSettingsFields = {
  name: line(200),
  allowedOrigins: z
    .array(allowedOrigin)
    .max(ALLOWED_ORIGINS_MAX, `at most ${ALLOWED_ORIGINS_MAX} origins`)
    .transform((list) => [...new Set(list)]),
  requireIdentity: z.boolean(),
  assistantName: clearable(line(60, 0)),
  greeting: clearable(text(500)),
  greetings,
  accentColor: clearable(
    z
      .string()
      .regex(/^#[0-9a-fA-F]{6}$/, 'a colour as # and six hex digits, e.g. #1a5fd0')
      .transform((s) => s.toLowerCase()),
  ),
  launcherPosition: z.enum(['bottom_right', 'bottom_left']),
  systemPrompt: clearable(text(8000)),
  model: clearable(
    z
      .string()
      .trim()
      .max(100, 'at most 100 characters')
      .regex(/^$|^[A-Za-z0-9][\w.:/@+-]*$/, 'a model name such as gpt-4o-mini'),
  ),
  replyMaxTokens: z.union([z.null(), z.number().int().min(16, 'at least 16').max(8192, 'at most 8192')]),
  /** the model may hand a conversation to a person (the `handoff_to_human` tool) */
  handoffEnabled: z.boolean(),
  /** a hand-off is assigned at once, round-robin among the site's agents at the console (inbox/auto-assign.ts) */
  autoAssign: z.boolean(),
  /** the widget reports the visitor's page (address and title) for the console's visitor profile */
  shareVisitorPages: z.boolean(),
  /** check in after this many minutes of silence (open question or todo); null = never */
  checkInAfterMinutes: z.union([z.null(), z.number().int().min(1, 'at least 1 minute').max(10080, 'at most a week (10080 minutes)')]),
  /** what visitors may attach, decided from the bytes; none turns attachments off */
  attachmentKinds: z.array(z.enum(ATTACHMENT_KIND_NAMES as [AttachmentKind, ...AttachmentKind[]])).max(ATTACHMENT_KIND_NAMES.length),
  /** the largest file (bytes); the deployment's ATTACHMENT_MAX_BYTES caps it whatever is set here */
  attachmentMaxBytes: z
    .number()
    .int()
    .min(1024, 'at least 1 KB')
    .max(100 * 1024 * 1024, 'at most 100 MB'),
  /** the largest total of one message's files (bytes) */
  attachmentMessageMaxBytes: z
    .number()
    .int()
    .min(1024, 'at least 1 KB')
    .max(250 * 1024 * 1024, 'at most 250 MB'),
  /** keep a conversation this many days after its last activity, then the retention sweep removes it; null = keep */
  retentionDays: z.union([z.null(), z.number().int().min(1, 'at least 1 day').max(3650, 'at most 3650 days (ten years)')]),
  /** unsolicited messages (intents, check-ins) per visitor per day; 0 turns them off */
  unsolicitedPerDay: z.number().int().min(0, 'at least 0').max(20, 'at most 20'),
};

const optionalFields = Object.fromEntries(Object.entries(siteSettingsFields).map(([k, v]) => [k, v.optional()])) as {
  [K in keyof typeof siteSettingsFields]: z.ZodOptional<(typeof siteSettingsFields)[K]>;
};

/** `console.sites.create`: a name, optionally a key (one is made from the name otherwise), and any settings. */
export const createSiteInput = z.strictObject({ ...optionalFields, name: siteSettingsFields.name, key: newSiteKey.optional() });

/** `console.sites.update`: the site and the settings to change (absent ones stay as they are). */
export const updateSiteInput = z.strictObject({ siteId: uuid, ...optionalFields });

/** The settings an update changes (any subset of the fields). */
export type SiteSettingsChange = Omit<z.infer<typeof updateSiteInput>, 'siteId'>;
