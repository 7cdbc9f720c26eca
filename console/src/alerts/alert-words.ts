import { visitorLabel } from '../state/visitor-label.ts';
import type { Alert } from './alert-events.ts';

/** What an alert says: a notification's title and body, and the live region's sentence. */
export interface AlertWords {
  title: string;
  body: string;
  spoken: string;
}

/**
 * The words of an alert. A private conversation is named "Private conversation" and its visitor
 * not at all: its title is the visitor's own words, and a notification shows on a screen others
 * may see. No alert carries message text, private or not.
 * @example alertWords(alert).spoken // 'Visitor waiting for a person: Shop — Boots in green'
 */
export function alertWords(alert: Alert): AlertWords {
  const about = `${alert.siteName} — ${conversationName(alert)}`;
  if (alert.kind === 'waiting') {
    return { title: 'Visitor waiting for a person', body: about, spoken: `Visitor waiting for a person: ${about}` };
  }
  const who = alert.private ? 'the visitor' : visitorLabel(alert.visitor);
  return { title: `New message from ${who}`, body: about, spoken: `New visitor message: ${about}` };
}

/** How an alert names the conversation. */
function conversationName(alert: Alert): string {
  if (alert.private) return 'Private conversation';
  return alert.title ?? 'New conversation';
}
