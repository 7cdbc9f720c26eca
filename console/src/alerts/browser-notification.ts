import { hrefOf } from '../state/route.ts';
import type { Alert } from './alert-events.ts';
import { alertWords } from './alert-words.ts';

/** What the browser lets the console do with notifications: `unsupported` where there is no Notification API. */
export type NotificationState = NotificationPermission | 'unsupported';

/** The browser's notification permission for the console's origin. */
export function notificationState(): NotificationState {
  return typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;
}

/**
 * Asks the browser for permission to show notifications. Browsers only ask from a user's
 * gesture, so call this from a click handler, never on load.
 * @example button.onclick = async () => (state = await askNotificationPermission());
 */
export async function askNotificationPermission(): Promise<NotificationState> {
  if (typeof Notification === 'undefined') return 'unsupported';
  try {
    return await Notification.requestPermission();
  } catch {
    return Notification.permission;
  }
}

/**
 * Shows an alert as a browser notification, when the browser allows it; returns whether it
 * did. Clicking it brings the console's tab forward and opens the conversation. The tag is the
 * alert's: a second console tab's notification of the same alert replaces the first instead
 * of stacking beside it.
 */
export function showNotification(alert: Alert): boolean {
  if (notificationState() !== 'granted') return false;
  const words = alertWords(alert);
  try {
    const shown = new Notification(words.title, { body: words.body, tag: `heed-${alert.kind}-${alert.conversationId}` });
    shown.addEventListener('click', () => {
      window.focus();
      location.hash = hrefOf({ view: 'transcript', conversationId: alert.conversationId });
      shown.close();
    });
    return true;
  } catch {
    // some browsers allow notifications only from a service worker: the other channels still tell
    return false;
  }
}
