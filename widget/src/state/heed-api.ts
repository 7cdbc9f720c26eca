import type { AttachmentView, ConversationView, MessageView, ResumedSession, Session, VisitorEvent } from './types.ts';

/** What `Heed('identify', …)` passes: a user id and the host backend's JWT (or static userHash). */
export interface Identity {
  userId: string;
  token?: string;
  userHash?: string;
}

/** What the event subscription reports about its connection. */
export type SubscriptionState = 'connecting' | 'connected' | 'reconnecting';

export interface SubscriptionHandlers {
  onEvent(event: VisitorEvent): void;
  onState(state: SubscriptionState): void;
  /** the subscription ended for good (e.g. the token was refused) */
  onError(error: unknown): void;
}

/** One file to upload to a conversation (`HeedApi.upload`). */
export interface UploadInput {
  conversationId: string;
  /** the file's name as the visitor's device gave it (the server cleans it) */
  name: string;
  file: Blob;
  /** bytes sent so far, as the upload goes */
  onProgress?: (sent: number) => void;
  /** aborts the upload: the promise rejects with a DOMException named `AbortError` */
  signal?: AbortSignal;
}

/**
 * An upload the server refused, as `HeedApi.upload` rejects it: a `RefusedError` whose `reason`
 * is the refusal's code (`file_too_large`, `file_type_refused`, `rate_limited`…), with what the
 * visitor needs to be told (`limitBytes`, `detected`) and when to try again (`retryAfterMs`, 429).
 */
export type UploadRefusal = RefusedError & { status: number; limitBytes?: number; detected?: string; retryAfterMs?: number };

/**
 * Everything the store asks of the server. The real one speaks tRPC (`trpc-api.ts`);
 * component tests pass a fake. Keeping the seam this narrow is what lets the store be
 * tested without a network.
 */
export interface HeedApi {
  /** with `identity`, the session is the host-verified user's (anonymous conversations join it) */
  /** `referrer` and `language` go to the console's visitor profile (`arrival.ts`) */
  startSession(input: {
    siteKey: string;
    visitorToken?: string;
    timeZone?: string;
    identity?: Identity;
    referrer?: string;
    language?: string;
  }): Promise<Session>;
  /**
   * The token of a reply email's link (`#heed-resume=…`) exchanged for that visitor's session,
   * with the conversation to open; refused (RefusedError `resume_token_invalid`) when forged,
   * altered or expired.
   */
  resumeSession(input: { siteKey: string; resumeToken: string; timeZone?: string; identity?: Identity }): Promise<ResumedSession>;
  /** Leaves the address to hear back by email while away (`null` forgets it), with the page the visitor is on. */
  setContactEmail(email: string | null, pageUrl: string): Promise<{ contactEmail: string | null }>;
  /** called once a session exists; later calls carry this token */
  setToken(token: string | null): void;
  listConversations(): Promise<{ cursor: string; conversations: ConversationView[] }>;
  getConversation(conversationId: string): Promise<{ cursor: string; conversation: ConversationView; messages: MessageView[] }>;
  createConversation(): Promise<ConversationView>;
  /**
   * `answersRequestId` links the message to the open input request it answers; `attachmentIds` are
   * uploads (`upload`) that go with it (`content` may then be '').
   */
  send(input: {
    conversationId: string;
    clientMessageId: string;
    content: string;
    answersRequestId?: string;
    attachmentIds?: string[];
  }): Promise<MessageView>;
  /** The API's base URL (ending in `/`): an attachment's `url` is relative to it. */
  readonly base: string;
  /**
   * Uploads one file to a conversation, not sent yet (`send` takes its id). Rejects with an
   * `UploadRefusal`, an `OfflineError`, an `AuthError`, or an `AbortError` once `signal` aborts.
   */
  upload(input: UploadInput): Promise<AttachmentView>;
  /** The visitor is typing after their send `after` (its `clientMessageId`): its run waits for the rest (see `TypingSignal`). */
  typing(conversationId: string, after: string): Promise<unknown>;
  /** Asks for the rest of a reply cut short (`cutShort`, nothing after it); the rest arrives as the next reply. */
  continueReply(input: { conversationId: string; messageId: string; clientMessageId: string }): Promise<MessageView>;
  retry(conversationId: string): Promise<{ requeued: number }>;
  markRead(conversationId: string, lastAssistantAt: string): Promise<ConversationView>;
  /** Sets a title the visitor owns (1–64 characters); no generated title replaces it. */
  rename(conversationId: string, title: string): Promise<ConversationView>;
  /** Marks a conversation private (never recalled elsewhere, never model-titled, its words hidden from the console) or not. */
  setPrivate(conversationId: string, value: boolean): Promise<ConversationView>;
  /** Deletes the visitor's conversation with everything in it, for good; NOT_FOUND when it is not theirs (or already gone). */
  deleteConversation(conversationId: string): Promise<unknown>;
  /** "Did this help?" after a person resolved the conversation: 1 or -1, with an optional comment (omitted: the one given stays). */
  rate(input: { conversationId: string; rating: 1 | -1; comment?: string }): Promise<ConversationView>;
  /** `Heed('intent', name, data?)`: the site's intent rules decide whether a message follows; unknown names are `ignored`, not errors. */
  fireIntent(name: string, data?: unknown): Promise<{ status: 'queued' | 'ignored' }>;
  /** The host page the visitor is on, for the console's visitor profile (sites that share visitor pages only). */
  reportPage(page: { url: string; title: string }): Promise<unknown>;
  /** Subscribes from `lastEventId`; reconnects resume by themselves. Returns an unsubscribe. */
  subscribe(lastEventId: string | null, handlers: SubscriptionHandlers): () => void;
}

/** The request never reached the server (offline, DNS, CORS): safe to try again later. */
export class OfflineError extends Error {
  override name = 'OfflineError';
}

/** The server refused the visitor token: a new session (or a sign-in) is needed. */
export class AuthError extends Error {
  override name = 'AuthError';
}

/**
 * The server refused for a reason the site owner must fix or the visitor must wait out
 * (`origin_not_allowed`, `identity_required`, `identity_invalid`, `identity_expired`…).
 */
export class RefusedError extends Error {
  override name = 'RefusedError';
  constructor(
    readonly reason: string,
    message: string,
  ) {
    super(message);
  }
}
