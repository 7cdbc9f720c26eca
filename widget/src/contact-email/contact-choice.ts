import type { HeedStore } from '../state/store.ts';
import type { ConversationView } from '../state/types.ts';

/** What the visitor answered the email offer: left an address, or said no. */
export type ContactChoice = 'given' | 'skipped';

/** Answers kept without storage (or before it answers), and addresses left in this page view, per store. */
const answered = new WeakMap<HeedStore, { visitorId: string | null; choice: ContactChoice; address: string | null }>();

/**
 * The visitor's answer to the email offer: this page view's, else the one kept under the
 * store's `contactKey` for this visitor (another visitor's, after `identify`, does not count).
 */
export function contactChoice(store: HeedStore): ContactChoice | null {
  const visitorId = store.state.visitorId;
  const here = answered.get(store);
  if (here && here.visitorId === visitorId) return here.choice;
  try {
    const kept = store.opts.contactKey ? localStorage.getItem(store.opts.contactKey) : null;
    const [who, choice] = kept?.split(' ') ?? [];
    return who === visitorId && (choice === 'given' || choice === 'skipped') ? choice : null;
  } catch {
    return null;
  }
}

/** The address the visitor left in this page view (the form confirms it), if any. */
export const addressGiven = (store: HeedStore): string | null => {
  const here = answered.get(store);
  return here && here.visitorId === store.state.visitorId ? here.address : null;
};

/** Keeps the visitor's answer, for this page view and, with a `contactKey`, the next visits. */
export function rememberContact(store: HeedStore, choice: ContactChoice, address: string | null = null): void {
  const visitorId = store.state.visitorId;
  answered.set(store, { visitorId, choice, address });
  try {
    if (store.opts.contactKey && visitorId) localStorage.setItem(store.opts.contactKey, `${visitorId} ${choice}`);
  } catch {
    // storage refused: the answer holds for this page view
  }
}

/**
 * Whether the thread offers "hear back by email": the server sends email, a person is to reply
 * (the conversation waits for one, or one holds it), the conversation is not private (its words
 * are the visitor's alone: nobody from the team answers it), and the visitor has not answered
 * the offer yet, or just left their address here (the form then confirms it).
 */
export function contactOffered(store: HeedStore, conversation: ConversationView): boolean {
  if (!store.state.emailReplies || conversation.private) return false;
  if (!conversation.waitingForPerson && !conversation.heldBy) return false;
  return contactChoice(store) === null || addressGiven(store) !== null;
}
