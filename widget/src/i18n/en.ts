import { enCore } from './en-core.ts';

/**
 * The widget's English strings, the default bundle: built in, never fetched on its own.
 * A few ride in the first chunk (`en-core.ts`); the rest ride in the
 * panel's chunk, which needs them (`panel-strings.ts`). Every other language is one
 * file in `locales/` with the same keys (`satisfies Messages` makes a missing key a type
 * error), loaded on demand (`catalog.ts`). Counted strings are functions of the count, so
 * each language writes its own plural forms (Arabic has six).
 *
 * @example t.send // 'Send'; t.openTasks(3) // 'Open tasks (3)'
 */
export const en = {
  ...enCore,
  // panel and heading
  chat: 'Chat',
  newConversation: 'New conversation',
  showConversations: 'Show conversations',
  home: 'Home',
  close: 'Close',
  writeMessage: 'Write a message…',
  typeAnswer: 'Type your answer…',
  status: {
    connecting: 'Connecting…',
    connected: 'Connected',
    reconnecting: 'Reconnecting…',
    offline: 'Offline',
    sign_in_needed: 'Sign-in needed',
    unavailable: 'Unavailable',
  },
  conversationTitle: 'Conversation title',
  rename: 'Rename conversation',
  // the heading's menu and provenance label
  conversationMenu: 'Conversation options',
  private: 'Private',
  privateHint: 'Never used in your other conversations; the site’s team sees that it happened, not what was said.',
  // deleting the open conversation: the menu item, its confirmation, and what is said after
  deleteConversation: 'Delete conversation',
  deleteWarning: 'This conversation and its files are deleted for good, here and for the site’s team. This cannot be undone.',
  delete: 'Delete',
  cancel: 'Cancel',
  /** said through the heading's status region once it is gone (here or in another tab) */
  conversationDeleted: 'Conversation deleted',
  deleteFailed: 'The conversation could not be deleted. Try again.',
  waitingForPerson: 'Waiting for a person',
  operator: 'Operator',
  operatorNamed: (name: string) => `Operator — ${name}`,
  // sidebar, rows and inbox
  conversations: 'Conversations',
  expandSidebar: 'Expand sidebar',
  collapseSidebar: 'Collapse sidebar',
  live: 'Live',
  inputNeeded: 'Input needed',
  newResponse: 'New response',
  /** between a row's title and its date, for screen readers */
  comma: ', ',
  needsAttention: 'Needs your attention',
  caughtUp: "You're all caught up.",
  start: 'Start a conversation',
  replyFailed: 'Reply failed',
  retry: 'Retry',
  /** the list of the site's pages a reply cites */
  sources: 'Sources',
  /** under a reply the model stopped at its length limit */
  cutShort: 'This reply was cut short.',
  /** asks for the rest of a reply cut short */
  continueReply: 'Continue',
  /** the panel on a page whose origin the site does not allow */
  chatUnavailable: 'Chat is unavailable on this page right now.',
  latestConversation: 'Latest conversation',
  continue: 'Continue',
  liveReplies: (n: number) => (n === 1 ? '1 live chat receiving replies' : `${n} live chats receiving replies`),
  openTasks: (n: number) => `Open tasks (${n})`,
  // thread and composer
  loading: 'Loading…',
  emptyThread: 'Ask anything — replies appear here.',
  replying: 'Replying',
  /** the thread's accessible name (a log screen readers follow) */
  thread: 'Messages',
  /** who said a message, for screen readers: the visitor */
  you: 'You',
  /** …and the assistant, when the site gave it no name */
  assistant: 'Assistant',
  sending: 'Sending…',
  notSent: 'Not sent',
  choices: 'Choices',
  // why a message appeared when it does not answer the visitor (provenance labels and notices)
  operatorJoined: (name: string) => `${name} joined`,
  operatorLeft: (name: string) => `${name} left — the assistant is back`,
  handedBack: (name: string) => `${name} handed the conversation back to the assistant`,
  handoffRequested: (site: string) => `A person from ${site} will reply here — you can leave this page.`,
  becauseYou: (label: string) => `Because you ${label}`,
  checkIn: 'Check-in',
  fromSite: (site: string) => `From ${site}`,
  answerBelow: 'Type your answer below: your next message answers this question.',
  orAnswerBelow: 'Or type your answer below: your next message answers this question.',
  message: 'Message',
  send: 'Send',
  /** the composer's paperclip: opens the file picker */
  attachFiles: 'Attach files',
  // the prompt after a person resolved the conversation
  didThisHelp: 'Did this help?',
  helpful: 'Helpful',
  notHelpful: 'Not helpful',
  ratingComment: 'Anything to add? (optional)',
  ratingThanks: 'Thank you for your feedback.',
  ratingFailed: 'Your answer could not be sent. Try again.',
  // the offer to hear back by email while a person is to reply (contact-email/)
  contactPrompt: 'Leave your email to hear back if you leave this page.',
  contactLabel: 'Your email',
  contactSave: 'Email me',
  contactSkip: 'No thanks',
  contactSaved: (email: string) => `We will email ${email} when someone replies.`,
  contactInvalid: 'Enter an email address, like name@example.com.',
  contactFailed: 'Your address could not be saved. Try again.',
};

/** The shape every language file fills in. */
export type Messages = typeof en;
