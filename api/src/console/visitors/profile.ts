import type { Prisma } from '../../db/client.ts';
import type { DbLike } from '../../db/types.ts';
import type { SiteScope } from '../../operators/site-access.ts';
import { readAttributes, type IdentityAttributes } from '../../identity/identity-attributes.ts';
import { conversationInScope } from '../conversations/in-scope.ts';
import { describeUserAgent } from './user-agent.ts';

/** Most earlier conversations a profile lists (the newest). */
export const EARLIER_MAX = 20;

/** One of the visitor's other conversations on the site. */
export interface EarlierConversation {
  id: string;
  /** null for a private conversation (its title is the visitor's words) or one not titled yet */
  title: string | null;
  private: boolean;
  createdAt: string;
  updatedAt: string;
  /** the team's status; a snooze that has run out reads `open` */
  status: 'open' | 'resolved' | 'snoozed';
}

/** Who the visitor of a conversation is, as the console's profile shows it. */
export interface VisitorProfile {
  visitorId: string;
  /** the host verified this user (`Heed('identify', …)`): their id, and the name, email and attributes it signed */
  identified: { userId: string; name: string | null; email: string | null; attributes: IdentityAttributes } | null;
  /** the site's owner shares visitor pages (`Site.shareVisitorPages`); off: `page` is null whatever was stored */
  pagesShared: boolean;
  /** the host page the visitor is on, as the widget last reported it */
  page: { url: string; title: string | null } | null;
  /** the page on another site that sent the visitor */
  referrer: string | null;
  /** the browser in words ("Chrome 131 on macOS"); null when the user agent could not be read */
  browser: string | null;
  userAgent: string | null;
  language: string | null;
  timeZone: string;
  firstSeenAt: string;
  lastSeenAt: string;
  /** the visitor's other conversations on this site, newest activity first, at most EARLIER_MAX */
  earlier: EarlierConversation[];
}

const VISITOR = {
  id: true,
  externalId: true,
  name: true,
  email: true,
  attributes: true,
  pageUrl: true,
  pageTitle: true,
  referrer: true,
  userAgent: true,
  language: true,
  timeZone: true,
  createdAt: true,
  lastSeenAt: true,
  site: { select: { shareVisitorPages: true } },
} satisfies Prisma.VisitorSelect;

const EARLIER = {
  id: true,
  title: true,
  private: true,
  createdAt: true,
  updatedAt: true,
  status: true,
  snoozedUntil: true,
} satisfies Prisma.ConversationSelect;

/**
 * The profile of a conversation's visitor, within the operator's sites, or null (gone and
 * out of scope look the same: the console answers NOT_FOUND for both, like the transcript).
 */
export async function visitorProfile(db: DbLike, q: { conversationId: string; sites: SiteScope }): Promise<VisitorProfile | null> {
  const conv = await conversationInScope(db, q);
  if (!conv) return null;
  const [v, earlier] = await Promise.all([
    db.visitor.findUnique({ where: { id: conv.visitorId }, select: VISITOR }),
    db.conversation.findMany({
      where: { visitorId: conv.visitorId, siteId: conv.siteId, id: { not: q.conversationId } },
      orderBy: [{ updatedAt: 'desc' }, { id: 'desc' }],
      take: EARLIER_MAX,
      select: EARLIER,
    }),
  ]);
  if (!v) return null;
  const now = new Date();
  const shared = v.site.shareVisitorPages;
  return {
    visitorId: v.id,
    identified:
      v.externalId === null ? null : { userId: v.externalId, name: v.name, email: v.email, attributes: readAttributes(v.attributes) ?? {} },
    pagesShared: shared,
    page: shared && v.pageUrl ? { url: v.pageUrl, title: v.pageTitle } : null,
    referrer: v.referrer,
    browser: describeUserAgent(v.userAgent),
    userAgent: v.userAgent,
    language: v.language,
    timeZone: v.timeZone,
    firstSeenAt: v.createdAt.toISOString(),
    lastSeenAt: v.lastSeenAt.toISOString(),
    earlier: earlier.map((c) => ({
      id: c.id,
      title: c.private ? null : c.title,
      private: c.private,
      createdAt: c.createdAt.toISOString(),
      updatedAt: c.updatedAt.toISOString(),
      // read as every surface reads it: a snooze past its time is open again, without a write
      status: c.status === 'snoozed' && (c.snoozedUntil === null || c.snoozedUntil <= now) ? 'open' : c.status,
    })),
  };
}
