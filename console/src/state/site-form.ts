import { ATTACHMENT_KIND_NAMES } from '../../../api/src/shared/attachment-kinds.ts';
import type { LauncherPosition, SiteFields, SiteSettings } from './contract.ts';

/** The editor's megabyte: 1,048,576 bytes, so the defaults (10 and 20 MB) read as whole numbers. */
export const MB = 1024 * 1024;

/**
 * Bytes as the editor's field shows them, in MB with at most two decimals.
 * @example megabytes(10_485_760) // '10'
 */
export const megabytes = (bytes: number): string => String(Math.round((bytes / MB) * 100) / 100);

/**
 * A field's MB to bytes; NaN when it is not a number. Left as shown, it is the stored value
 * itself, so a size the field rounds is not saved as changed.
 * @example bytesOf('2.5') // 2621440
 */
export function bytesOf(text: string, before?: number): number {
  const value = text.trim();
  if (before !== undefined && value === megabytes(before)) return before;
  return value === '' ? Number.NaN : Math.round(Number(value) * MB);
}

/**
 * The site settings form's values to the procedure's input: blank optional texts become
 * null (the site's defaults apply), allowed origins are one per line, the reply token cap
 * a whole number or null, the check-in delay in minutes or null (off), the attachment kinds ticked
 * (none: off), the attachment sizes from MB to bytes (`before`: the stored ones, kept when left
 * as shown), and the days conversations are kept (blank: kept). The server checks every field
 * again (zod); this only shapes.
 *
 * @example siteInput(new FormData(form)) // { name: 'Shop', allowedOrigins: ['https://shop.example'], … }
 */
export function siteInput(
  form: FormData,
  before?: Pick<SiteFields, 'attachmentMaxBytes' | 'attachmentMessageMaxBytes'>,
): SiteFields & { key?: string } {
  const text = (name: string) => String(form.get(name) ?? '').trim();
  const orNull = (name: string) => text(name) || null;
  const cap = text('replyMaxTokens');
  const checkIn = text('checkInAfterMinutes');
  const perDay = text('unsolicitedPerDay');
  const keepDays = text('retentionDays');
  const key = text('key');
  return {
    ...(key ? { key } : {}),
    name: text('name'),
    allowedOrigins: text('allowedOrigins')
      .split(/[\s,]+/)
      .map((o) => o.trim())
      .filter(Boolean),
    requireIdentity: form.get('requireIdentity') === 'on',
    assistantName: orNull('assistantName'),
    greeting: orNull('greeting'),
    greetings: greetingsOf(text('greetings')),
    accentColor: orNull('accentColor')?.toLowerCase() ?? null,
    launcherPosition: (text('launcherPosition') || 'bottom_right') as LauncherPosition,
    systemPrompt: orNull('systemPrompt'),
    model: orNull('model'),
    replyMaxTokens: cap === '' ? null : Number(cap),
    handoffEnabled: form.get('handoffEnabled') === 'on',
    autoAssign: form.get('autoAssign') === 'on',
    shareVisitorPages: form.get('shareVisitorPages') === 'on',
    // blank: no check-ins
    checkInAfterMinutes: checkIn === '' ? null : Number(checkIn),
    // blank: the default budget
    unsolicitedPerDay: perDay === '' ? 2 : Number(perDay),
    // in the kinds' own order, whatever order they were ticked in
    attachmentKinds: ATTACHMENT_KIND_NAMES.filter((kind) => form.getAll('attachmentKinds').includes(kind)),
    attachmentMaxBytes: bytesOf(text('attachmentMaxBytes'), before?.attachmentMaxBytes),
    attachmentMessageMaxBytes: bytesOf(text('attachmentMessageMaxBytes'), before?.attachmentMessageMaxBytes),
    // blank: keep conversations; anything else is the editor's to check (NaN included)
    retentionDays: keepDays === '' ? null : Number(keepDays),
  };
}

/**
 * "de: Hallo!" lines to greetings by language code (the first colon ends the code; blank lines
 * and lines without one are left out); none at all is null.
 * @example greetingsOf('de: Hallo!\nfr: Bonjour !') // { de: 'Hallo!', fr: 'Bonjour !' }
 */
export function greetingsOf(lines: string): Record<string, string> | null {
  const entries = lines
    .split(/\r?\n/)
    .map((line) => /^\s*([A-Za-z-]+)\s*:(.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null && m[2]!.trim() !== '')
    .map((m) => [m[1]!.toLowerCase(), m[2]!.trim()] as const);
  return entries.length > 0 ? Object.fromEntries(entries) : null;
}

/** Greetings as the form shows them: one "code: text" line each. */
export const greetingLines = (greetings: Record<string, string> | null | undefined): string =>
  Object.entries(greetings ?? {})
    .map(([code, text]) => `${code}: ${text}`)
    .join('\n');

/** The fields an update sends: only those that differ from the stored settings. */
export function changedFields(before: SiteSettings, after: SiteFields): Partial<SiteFields> {
  const changed: Partial<SiteFields> = {};
  for (const key of Object.keys(after) as (keyof SiteFields)[]) {
    if (JSON.stringify(before[key] ?? null) !== JSON.stringify(after[key] ?? null)) (changed as Record<string, unknown>)[key] = after[key];
  }
  return changed;
}
