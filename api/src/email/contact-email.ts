import { z } from 'zod';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { refuse } from '../errors/refusal.ts';
import { normalizeOrigin } from '../sites/origin-rule.ts';
import type { SitePolicies } from '../sites/site-policy.ts';
import { resumablePage } from './visitor-reply.ts';

/** An address a visitor leaves in the widget: trimmed, at most 320 characters, a plain `local@domain.tld`. */
export const contactEmail = z.string().trim().max(320, 'at most 320 characters').pipe(z.email('an email address such as ana@example.com'));

/** The page the widget is on, as it reports it with the address (checked by the site's origins). */
export const contactPage = z.string().max(2000, 'at most 2000 characters');

/**
 * Keeps the address a visitor left to hear back (`Visitor.contactEmail`) and the page they left
 * it on (`Visitor.contactPageUrl`, where their reply email's link leads back), or forgets the address
 * (`email: null`). Leaving an address again after unsubscribing asks for email again, so the
 * opt-out is cleared. Refused: a server that sends no email (`email_off`), and a page that is not
 * an http(s) address on an origin the site allows, or not the requesting page's own origin
 * (`page_not_allowed`).
 * @example await setContactEmail(services, { visitorId, siteId, origin, email: 'ana@example.com', pageUrl: 'https://shop.example/help' });
 */
export async function setContactEmail(
  s: { db: Db; sites: SitePolicies; config: Pick<Config, 'SMTP_URL'> },
  input: { visitorId: string; siteId: string; origin: string | null; email: string | null; pageUrl: string },
): Promise<{ contactEmail: string | null }> {
  if (!s.config.SMTP_URL) throw refuse('bad_request', 'email_off', 'This server sends no email.');
  if (input.email === null) {
    await s.db.visitor.update({ where: { id: input.visitorId }, data: { contactEmail: null }, select: { id: true } });
    return { contactEmail: null };
  }
  const site = await s.sites.byId(input.siteId);
  const page = resumablePage(input.pageUrl, site?.allowedOrigins ?? []);
  const fromThatPage = !input.origin || normalizeOrigin(input.origin) === (page && new URL(page).origin);
  if (!site || !page || !fromThatPage) {
    throw refuse('bad_request', 'page_not_allowed', 'The page must be an http(s) address on one of the site’s allowed origins.');
  }
  await s.db.visitor.update({
    where: { id: input.visitorId },
    data: { contactEmail: input.email, emailOptOutAt: null, contactPageUrl: page },
    select: { id: true },
  });
  return { contactEmail: input.email };
}
