import { originAllowed } from '../sites/origin-rule.ts';
import { cancelAll, eventTime, footer, type ComposeDeps, type Composed } from './composed.ts';
import { emailBaseUrl, unsubscribeOf } from './email-links.ts';
import type { ClaimedEmail } from './outbox-claims.ts';
import { signResumeToken } from './resume-token.ts';

/** The newest unread operator messages one email quotes, and the characters of each. */
const QUOTED_MAX = 5;
const QUOTE_CHARS = 2000;

/**
 * The page a visitor's link leads back to: an http(s) address on an origin the site allows,
 * without its fragment (the link adds its own); null for anything else.
 * @example resumablePage('https://shop.example/help#top', ['https://shop.example']) // 'https://shop.example/help'
 */
export function resumablePage(pageUrl: string | null, allowedOrigins: readonly string[]): string | null {
  if (!pageUrl) return null;
  let url: URL;
  try {
    url = new URL(pageUrl);
  } catch {
    return null;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password) return null;
  if (!originAllowed(allowedOrigins, url.origin)) return null;
  url.hash = '';
  return url.href.length <= 2000 ? url.href : null;
}

/**
 * A visitor's reply email from a claimed `visitor_reply` row: the operators' messages they have
 * not read (the newest few, each bounded), and a signed link back to the page they were on
 * (`<page>#heed-resume=<token>`, 7 days) that opens the conversation. Cancelled when the reason
 * is gone at send time: the visitor read the conversation since, unsubscribed, or removed their
 * address.
 */
export async function composeVisitorReply(deps: ComposeDeps, row: ClaimedEmail): Promise<Composed> {
  const at = eventTime(row);
  if (!row.visitorId || !row.conversationId || !at) return cancelAll([row]);
  const { db } = deps;
  const visitor = await db.visitor.findUnique({
    where: { id: row.visitorId },
    select: { contactEmail: true, emailOptOutAt: true, contactPageUrl: true },
  });
  const conversation = await db.conversation.findFirst({
    where: { id: row.conversationId, visitorId: row.visitorId },
    select: { lastReadAt: true, site: { select: { name: true, allowedOrigins: true } } },
  });
  if (!visitor?.contactEmail || visitor.emailOptOutAt || !conversation) return cancelAll([row]);
  if (conversation.lastReadAt && conversation.lastReadAt >= at) return cancelAll([row]);
  const unread = await db.message.findMany({
    where: { conversationId: row.conversationId, role: 'operator', createdAt: { gt: conversation.lastReadAt ?? new Date(0) } },
    select: { content: true, provenanceLabel: true },
    orderBy: { seq: 'desc' },
    take: QUOTED_MAX,
  });
  if (unread.length === 0) return cancelAll([row]);

  const site = conversation.site.name;
  const names = [...new Set(unread.map((m) => m.provenanceLabel).filter((n): n is string => !!n))];
  const who = names.length === 1 ? `${names[0]} from ${site}` : `The team of ${site}`;
  const quoted = unread
    .reverse()
    .map((m) => (m.content.length > QUOTE_CHARS ? `${m.content.slice(0, QUOTE_CHARS)}…` : m.content))
    .join('\n\n');
  const page = resumablePage(visitor.contactPageUrl, conversation.site.allowedOrigins);
  const token = signResumeToken(deps.keys, { visitorId: row.visitorId, conversationId: row.conversationId }, { now: deps.now?.getTime() });
  const onward = page
    ? `Continue the conversation (this link works for 7 days):\n${page}#heed-resume=${token}`
    : `Open the chat on ${site}'s website to continue the conversation.`;
  const unsubscribe = unsubscribeOf(emailBaseUrl(deps.config), deps.keys, { visitorId: row.visitorId });
  const text =
    `${who} replied to you:\n\n${quoted}\n\n${onward}` +
    footer(`You get this email because you left this address in the chat on ${site}, to hear back if you left.`, unsubscribe.url);
  return {
    email: { to: visitor.contactEmail, subject: `${who} replied to you`, text, headers: unsubscribe.headers },
    covered: [row],
    cancelled: [],
  };
}
