import { z } from 'zod';

/** Longest page address or referrer stored (`Visitor.pageUrl`, `Visitor.referrer`). */
export const PAGE_URL_MAX = 2000;
/** Longest page title stored (`Visitor.pageTitle`). */
export const PAGE_TITLE_MAX = 300;
/** Longest user agent stored (`Visitor.userAgent`): longer ones are cut, they still parse. */
export const USER_AGENT_MAX = 500;

const CONTROL = /[\u0000-\u001F\u007F-\u009F]/;

/**
 * The address without its user name and password (`https://user:pw@…` would put a secret
 * in the console), or null when it is not an absolute http(s) URL.
 */
function webAddress(raw: string): string | null {
  if (!URL.canParse(raw)) return null;
  const url = new URL(raw);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  url.username = '';
  url.password = '';
  return url.href;
}

/**
 * A page's address as the widget reports it (`location.href`): an absolute http(s) URL of at
 * most PAGE_URL_MAX characters, no control characters. Stored without credentials.
 */
export const pageUrl = z
  .string()
  .max(PAGE_URL_MAX, `at most ${PAGE_URL_MAX} characters`)
  .refine((s) => !CONTROL.test(s), 'must not contain control characters')
  // checked as stored: the URL parser may lengthen an odd address (percent-encoding)
  .refine((s) => (webAddress(s)?.length ?? Infinity) <= PAGE_URL_MAX, 'must be an http(s) address')
  .transform((s) => webAddress(s)!);

/**
 * A page's title (`document.title`): whitespace collapsed, at most PAGE_TITLE_MAX characters,
 * no control characters; '' (a page without a title) is stored as none.
 */
export const pageTitle = z
  .string()
  .max(PAGE_TITLE_MAX, `at most ${PAGE_TITLE_MAX} characters`)
  .refine((s) => !CONTROL.test(s), 'must not contain control characters')
  .transform((s) => s.replace(/\s+/g, ' ').trim() || null);

/**
 * The page that sent the visitor (`document.referrer`). Lenient: the browser decides what it
 * holds, so one that is too long or not http(s) is dropped, never failing the session.
 */
export const referrer = pageUrl.optional().catch(undefined);

/**
 * The browser's preferred language (`navigator.language`, a BCP 47 tag such as `pt-BR`), at
 * most 35 characters. Lenient like the referrer: an odd one is dropped.
 */
export const language = z
  .string()
  .max(35)
  .regex(/^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/)
  .optional()
  .catch(undefined);

/**
 * The request's `User-Agent` as stored: control characters removed, cut to USER_AGENT_MAX;
 * null when there is none. Read from the request, never sent by the widget: one less field
 * a page could fill with anything.
 */
export function userAgentOf(header: string | string[] | undefined): string | null {
  const raw = Array.isArray(header) ? header[0] : header;
  const clean = raw?.replace(/[\u0000-\u001F\u007F-\u009F]/g, '').trim();
  return clean ? clean.slice(0, USER_AGENT_MAX) : null;
}

/** What a session start learns about the visitor's browser, stored on their row (absent: kept as it was). */
export interface VisitorArrival {
  referrer?: string;
  language?: string;
  userAgent?: string | null;
}

/** The columns an arrival sets: only what it carries, so a later page load never erases a referrer. */
export function arrivalData(arrival: VisitorArrival | undefined): { referrer?: string; language?: string; userAgent?: string } {
  if (!arrival) return {};
  return {
    ...(arrival.referrer ? { referrer: arrival.referrer } : {}),
    ...(arrival.language ? { language: arrival.language } : {}),
    ...(arrival.userAgent ? { userAgent: arrival.userAgent } : {}),
  };
}
