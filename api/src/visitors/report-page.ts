import type { Services } from '../services.ts';
import type { VisitorOf } from '../limits/limits.ts';

/** Conversations of the visitor whose console rows are told about a new page (the newest ones: where an operator is looking). */
const TOUCH_NEWEST = 5;

/** What the widget reports: the host page's address (as `visitor.page` accepted it) and its title, if any. */
export interface PageReport {
  url: string;
  title: string | null;
}

/**
 * Stores the page the visitor is on (`Visitor.pageUrl`, `pageTitle`), for the console's visitor
 * profile, only for a site whose owner turned `shareVisitorPages` on. Off, nothing is stored
 * and the answer says so (`stored: false`): not an error, because a widget that loaded before
 * the owner turned it off may still report for a few seconds, and the page must not see a failure.
 *
 * A page that is not new (the same address and title) writes nothing. A new one tells the
 * console's streams about the visitor's newest conversations, so a profile open beside one of
 * them shows the new page without polling (the rows re-sent are unchanged: an upsert is harmless).
 */
export async function reportPage(
  s: Pick<Services, 'db' | 'sites' | 'bus'>,
  visitor: VisitorOf,
  page: PageReport,
): Promise<{ stored: boolean }> {
  const site = await s.sites.byId(visitor.siteId);
  if (!site?.shareVisitorPages) return { stored: false };
  const changed = await s.db.$executeRaw`
    UPDATE "Visitor" SET "pageUrl" = ${page.url}, "pageTitle" = ${page.title}, "lastSeenAt" = now()
    WHERE id = ${visitor.visitorId}::uuid AND "siteId" = ${visitor.siteId}::uuid
      AND ("pageUrl" IS DISTINCT FROM ${page.url} OR "pageTitle" IS DISTINCT FROM ${page.title})`;
  if (changed > 0) await touchNewest(s, visitor.visitorId);
  return { stored: true };
}

async function touchNewest(s: Pick<Services, 'db' | 'bus'>, visitorId: string): Promise<void> {
  const newest = await s.db.conversation.findMany({
    where: { visitorId },
    orderBy: { updatedAt: 'desc' },
    take: TOUCH_NEWEST,
    select: { id: true },
  });
  // the page is stored: a lost wake-up only delays the profile until its next refresh
  await s.bus.touchConversations(newest.map((c) => c.id)).catch((err: unknown) => s.bus.notifyFailed(err));
}
