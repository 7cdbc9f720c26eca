import { readAlertSettings } from '../operators/alert-settings.ts';
import { coversSite, siteScopeOf } from '../operators/site-access.ts';
import { cancelAll, eventTime, footer, howLong, type ComposeDeps, type Composed } from './composed.ts';
import { consoleConversationUrl, emailBaseUrl, unsubscribeOf } from './email-links.ts';
import type { ClaimedEmail } from './outbox-claims.ts';

/** Most conversations one alert email lists; the rest wait for the next pass. */
const LISTED_MAX = 50;

type Conversation = {
  id: string;
  siteId: string;
  title: string | null;
  private: boolean;
  waitingSince: Date | null;
  assigneeId: string | null;
  heldById: string | null;
  site: { name: string };
};

/**
 * One operator's alert email from their claimed `operator_alert` rows: every conversation whose
 * reason still holds, once, with its site, its title (not a private one's), how long it has
 * waited and its link in the console. A row is cancelled when its reason is gone at send time:
 * the operator turned email alerts off or no longer covers the site, read the conversation past
 * the event (`OperatorRead.lastReadAt`), the conversation stopped waiting (or waits since another
 * time), or someone else is now responsible for it.
 */
export async function composeOperatorAlert(deps: ComposeDeps, rows: readonly ClaimedEmail[]): Promise<Composed> {
  const operatorId = rows[0]?.operatorId;
  if (!operatorId) return cancelAll(rows);
  const { db } = deps;
  const op = await db.operator.findUnique({
    where: { id: operatorId },
    select: { email: true, name: true, role: true, siteIds: true, allSites: true, alerts: true, passwordHash: true },
  });
  if (!op || op.passwordHash === null || !readAlertSettings(op.alerts).email) return cancelAll(rows);
  const ids = [...new Set(rows.map((r) => r.conversationId).filter((id): id is string => id !== null))];
  const conversations = new Map(
    (
      await db.conversation.findMany({
        where: { id: { in: ids } },
        select: {
          id: true,
          siteId: true,
          title: true,
          private: true,
          waitingSince: true,
          assigneeId: true,
          heldById: true,
          site: { select: { name: true } },
        },
      })
    ).map((c) => [c.id, c]),
  );
  const reads = new Map(
    (await db.operatorRead.findMany({ where: { operatorId, conversationId: { in: ids } } })).map((r) => [r.conversationId, r.lastReadAt]),
  );
  const scope = siteScopeOf(op);
  const stillDue = (row: ClaimedEmail): Conversation | null => {
    const c = row.conversationId ? conversations.get(row.conversationId) : undefined;
    const at = eventTime(row);
    if (!c || !at || !coversSite(scope, c.siteId)) return null;
    const read = reads.get(c.id);
    if (read && read >= at) return null;
    const responsible = c.assigneeId ?? c.heldById;
    if (row.payload?.event === 'waiting') {
      const sameWait = c.waitingSince?.getTime() === at.getTime();
      return sameWait && (responsible ? responsible === operatorId : op.role === 'owner') ? c : null;
    }
    return row.payload?.event === 'message' && responsible === operatorId ? c : null;
  };

  const covered: ClaimedEmail[] = [];
  const cancelled: ClaimedEmail[] = [];
  // one entry per conversation: since when it waits, and when the visitor first wrote unread
  const listed = new Map<string, { c: Conversation; waitingAt?: Date; wroteAt?: Date }>();
  for (const row of rows) {
    const c = stillDue(row);
    if (!c) {
      cancelled.push(row);
      continue;
    }
    // past the cap a row is neither: the pass frees it for the next email
    if (!listed.has(c.id) && listed.size >= LISTED_MAX) continue;
    covered.push(row);
    const entry = listed.get(c.id) ?? { c };
    const at = eventTime(row)!;
    if (row.payload?.event === 'waiting') entry.waitingAt = at;
    else if (!entry.wroteAt || at < entry.wroteAt) entry.wroteAt = at;
    listed.set(c.id, entry);
  }
  if (listed.size === 0) return { email: null, covered: [], cancelled };

  const now = (deps.now ?? new Date()).getTime();
  const base = emailBaseUrl(deps.config);
  const since = (e: { waitingAt?: Date; wroteAt?: Date }) => (e.waitingAt ?? e.wroteAt)!.getTime();
  const items = [...listed.values()].sort((a, b) => since(a) - since(b));
  const lines = items.map((e) => {
    const title = e.c.private ? 'Private conversation' : (e.c.title ?? 'Untitled conversation');
    const what = e.waitingAt
      ? `Waiting for a person for ${howLong(now - e.waitingAt.getTime())}.`
      : `The visitor wrote ${howLong(now - e.wroteAt!.getTime())} ago.`;
    return `* ${e.c.site.name}: ${title}\n  ${what}\n  ${consoleConversationUrl(base, e.c.id)}`;
  });
  const count = items.length === 1 ? 'A conversation needs' : `${items.length} conversations need`;
  const unsubscribe = unsubscribeOf(base, deps.keys, { operatorId });
  const delay = howLong(deps.config.EMAIL_ALERT_DELAY_MS);
  const text =
    `Hello ${op.name},\n\n${count} you in Heed's console:\n\n${lines.join('\n\n')}` +
    footer(
      `You get this email when a conversation waits for a person, or a visitor writes to a conversation of yours, and nobody looked at it in the console within ${delay}. Turn email alerts off in your profile in the console, or here.`,
      unsubscribe.url,
    );
  const subject = items.length === 1 ? `A visitor needs you on ${items[0]!.c.site.name}` : `${items.length} conversations need you`;
  return { email: { to: op.email, subject, text, headers: unsubscribe.headers }, covered, cancelled };
}
