/**
 * What travels on the schedule channel (`keys.scheduleChannel()`): a conversation id, due at
 * once (a retry, a hand-back, an intent, a check-in, leftovers of a run), or a send's wake-up,
 * `send:<id>`, whose batch is due no sooner than a debounce from now. Workers poll at once for
 * the first and within a short gap for the second (worker.ts): at hundreds of sends a second,
 * a poll per wake-up kept PostgreSQL re-reading every pending batch back to back.
 */
const SEND = 'send:';

export const sendWake = (conversationId: string) => `${SEND}${conversationId}`;

export const isSendWake = (message: string) => message.startsWith(SEND);

/** The conversation a send's wake-up names. */
export const sendWakeConversation = (message: string) => message.slice(SEND.length);
