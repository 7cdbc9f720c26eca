import type { Config } from '../config.ts';
import type { DbLike } from '../db/types.ts';
import { readAlertSettings } from '../operators/alert-settings.ts';
import { coversSite, siteScopeOf } from '../operators/site-access.ts';
import { alertEvents } from './alert-events.ts';
import { enqueueEmails, type EmailToQueue } from './enqueue.ts';
import { replyEvents } from './reply-events.ts';

/**
 * Queues the emails the events call for, each due `EMAIL_ALERT_DELAY_MS` after its event (the
 * sender checks again then, so a conversation seen meanwhile sends nothing): operator alerts
 * (alert-events.ts) for operators whose `email` alert setting is on and who still cover the
 * site, and visitor reply emails (reply-events.ts). Every event has its own dedupe key, so
 * running this again, in this process or another, queues nothing twice. Answers how many
 * emails were new.
 * @example await runAlertPass({ db, config });
 */
export async function runAlertPass(s: { db: DbLike; config: Pick<Config, 'EMAIL_ALERT_DELAY_MS'> }): Promise<number> {
  const delay = s.config.EMAIL_ALERT_DELAY_MS;
  const due = (at: Date) => new Date(at.getTime() + delay);
  const queue: EmailToQueue[] = [];
  for (const e of await alertEvents(s.db)) {
    if (!readAlertSettings(e.operator.alerts).email || !coversSite(siteScopeOf(e.operator), e.siteId)) continue;
    queue.push({
      kind: 'operator_alert',
      dedupeKey:
        e.event === 'waiting'
          ? `alert:waiting:${e.conversationId}:${e.at.getTime()}:${e.operator.id}`
          : `alert:message:${e.messageId}:${e.operator.id}`,
      recipient: e.operator.email,
      siteId: e.siteId,
      conversationId: e.conversationId,
      operatorId: e.operator.id,
      dueAt: due(e.at),
      payload: { event: e.event, at: e.at.toISOString() },
    });
  }
  for (const e of await replyEvents(s.db)) {
    queue.push({
      kind: 'visitor_reply',
      dedupeKey: `reply:${e.messageId}`,
      recipient: e.contactEmail,
      siteId: e.siteId,
      conversationId: e.conversationId,
      visitorId: e.visitorId,
      dueAt: due(e.at),
      payload: { at: e.at.toISOString() },
    });
  }
  return enqueueEmails(s.db, queue);
}
