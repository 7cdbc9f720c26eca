/**
 * The English strings that modules outside the panel read: the launcher's name, its badge's
 * sentence, and the send queue's countdown (its chunk may load before the panel). Built into
 * the first chunk; the panel's strings wait for its chunk (measured: all of English in the
 * first chunk cost it ~0.4 KB gzip more than these). Part of `en` (en.ts), which types them.
 */
export const enCore = {
  openChat: 'Open chat',
  closeChat: 'Close chat',
  /** the preview of a reply beside the closed launcher, for screen readers */
  newReply: 'New reply',
  /** hides that preview */
  dismiss: 'Dismiss',
  liveChats: (n: number) => (n === 1 ? '1 live chat' : `${n} live chats`),
  needInput: (n: number) => (n === 1 ? '1 chat needs your input' : `${n} chats need your input`),
  newResponses: (n: number) => (n === 1 ? '1 new response' : `${n} new responses`),
  sendingInS: (n: number) => `Sending in ${n} s`,
  sendingInMin: (n: number) => `Sending in ${n} min`,
};
