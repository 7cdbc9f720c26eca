import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../../api/src/trpc/app-router.ts';

export type { VisitorEvent } from '../../../api/src/events/event-types.ts';
export type { AttentionCounts, Attention } from '../../../api/src/shared/attention.ts';

type Outputs = inferRouterOutputs<AppRouter>;
type ServerConversation = Outputs['conversation']['list']['conversations'][number];
type ServerMessage = Outputs['conversation']['get']['messages'][number];

/** The question the assistant is waiting on (`request_user_input`). */
export type InputRequestView = NonNullable<ServerConversation['inputRequest']>;
/** Something the assistant promised to do and has not done yet. */
export type TodoView = ServerConversation['openTodos'][number];
/** On the assistant message that asks: the request it opened (the message's `content` is the question). */
export type { MessageInputRequest } from '../../../api/src/conversations/views.ts';
/** A file sent with a message; its `url` is relative to the API's base (`new URL(url, api.base)`). */
export type { AttachmentView } from '../../../api/src/conversations/views.ts';

/*
 * The input-request fields (and the people-and-intents ones: `waitingForPerson`, `heldBy`,
 * `private`, a message's `provenanceLabel`; the team's `status` and the visitor's `rating`; a
 * message's `attachments` and the site's) are optional here although the server always sends
 * them: a widget can meet an API deployed before they existed. Read them as
 * `c.inputRequest ?? null`, `c.openTodos ?? []`, `!!c.private`, `c.status ?? 'open'`,
 * `m.attachments ?? []`; the compiler insists.
 */
type Lenient<T, K extends keyof T> = Omit<T, K> & Partial<Pick<T, K>>;

/** A conversation as the server describes it (title, unread metadata, live state, open question, todos). */
export type ConversationView = Lenient<
  ServerConversation,
  'inputRequest' | 'openTodos' | 'waitingForPerson' | 'heldBy' | 'private' | 'status' | 'rating'
>;
/** A stored message as the server describes it. */
export type MessageView = Lenient<ServerMessage, 'inputRequest' | 'provenanceLabel' | 'attachments'>;
type ServerSession = Outputs['session']['start'];
/**
 * The site as the widget shows it: its name, and the branding (and `shareVisitorPages`, and what
 * visitors may attach) an older API omits.
 */
export type SiteBranding = Lenient<
  ServerSession['site'],
  'assistantName' | 'greeting' | 'greetings' | 'accentColor' | 'launcherPosition' | 'shareVisitorPages' | 'attachments'
>;
/**
 * What a visitor may attach on this site: the kinds (`[]`: the site turned attachments off), the
 * largest file, the most one message's files may weigh together, and how many go with one message.
 */
export type AttachmentSettings = NonNullable<SiteBranding['attachments']>;
/** What `session.start` answers (`emailReplies` is absent from an API older than email). */
export type Session = Lenient<Omit<ServerSession, 'site'>, 'emailReplies'> & { site: SiteBranding };
/** What `session.resume` answers: a session, and the conversation the email's link opens. */
export type ResumedSession = Session & { conversationId: string };

/**
 * A message the thread shows: a stored one, or the visitor's own optimistic copy that the
 * server has not acknowledged yet (`pending`), or one it refused (`sendError`).
 */
export interface ThreadMessage extends MessageView {
  pending?: boolean;
  sendError?: string;
  /** the input request this send answers (kept on the visitor's copy while it travels) */
  answersRequestId?: string | null;
  /** the server asked the queue to wait (429): when this send goes out again, ms since epoch */
  retryAt?: number;
}

/**
 * What the heading says about the event connection. `unavailable`: the site does not allow
 * this page's origin, so there is no visitor token and nothing can be sent from here.
 */
export type ConnectionStatus = 'connecting' | 'connected' | 'reconnecting' | 'offline' | 'sign_in_needed' | 'unavailable';

/** The text so far of the reply a run is streaming. */
export interface StreamingReply {
  runId: string;
  text: string;
  /** the messages this run answers, so the reply shows right after them */
  after?: readonly string[];
}
