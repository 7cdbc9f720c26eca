/** Longest referrer the API stores (a longer one would be dropped there anyway). */
const REFERRER_MAX = 2_000;

/** What a session start says about this visit. */
export interface Arrival {
  referrer?: string;
  language?: string;
}

/**
 * What the session start tells the console's visitor profile about this visit: the browser's
 * language, and the referrer when it is another site's page (a page of this site sent the
 * visitor here: the referrer of their arrival stays as it was). The user agent is not sent:
 * the API reads the request's own header.
 * @example api.startSession({ siteKey, ...arrival() })
 */
export const arrival = (): Arrival => arrivalOf(document.referrer, navigator.language, location.origin);

/**
 * The same from given values.
 * @example arrivalOf('https://search.example/?q=boots', 'pt-BR', 'https://shop.example') // { language: 'pt-BR', referrer: 'https://search.example/?q=boots' }
 */
export function arrivalOf(referrer: string, language: string, origin: string): Arrival {
  const out: Arrival = language ? { language } : {};
  if (!URL.canParse(referrer)) return out;
  const from = new URL(referrer);
  if (from.origin !== origin && /^https?:$/.test(from.protocol) && from.href.length <= REFERRER_MAX) out.referrer = from.href;
  return out;
}
