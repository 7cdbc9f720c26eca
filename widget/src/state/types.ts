import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../../api/src/trpc/app-router.ts';

export type { VisitorEvent } from '../../../api/src/events/event-types.ts';
export type { AttentionCounts, Attention } from '../../../api/src/shared/attention.ts';

type Outputs = inferRouterOutputs<AppRouter>;

/** The question the assistant is waiting on (`request_user_input`). */
export interface InputRequestView {
  id: string;
  question: string;
  /** answers the visitor can pick with one click */
  choices: string[];
  /** the visitor may also answer in their own words, through the composer */
  allowFreeText: boolean;
  createdAt: string;
}

/** Something the assistant promised to do and has not done yet. */
export interface TodoView {
  id: string;
  text: string;
  createdAt: string;
}

/** On the assistant message that asks: the request it opened (the message's `content` is the question). */
export interface MessageInputRequest {
  id: string;
  choices: string[];
  allowFreeText: boolean;
  status: 'open' | 'answered';
}

/*
 * The input-request fields are the server's contract (issue 5) and are optional here until
 * every API the widget may talk to sends them: read them as `c.inputRequest ?? null` and
 * `c.openTodos ?? []`. Once the server's views carry them, the intersections below add nothing.
 */

/** A conversation as the server describes it (title, unread metadata, live state, open question, todos). */
export type ConversationView = Outputs['conversation']['list']['conversations'][number] & {
  inputRequest?: InputRequestView | null;
  openTodos?: TodoView[];
};
/** A stored message as the server describes it. */
export type MessageView = Outputs['conversation']['get']['messages'][number] & { inputRequest?: MessageInputRequest | null };
/** What `session.start` answers. */
export type Session = Outputs['session']['start'];

/**
 * A message the thread shows: a stored one, or the visitor's own optimistic copy that the
 * server has not acknowledged yet (`pending`), or one it refused (`sendError`).
 */
export interface ThreadMessage extends MessageView {
  pending?: boolean;
  sendError?: string;
  /** the input request this send answers (kept on the visitor's copy while it travels) */
  answersRequestId?: string | null;
}

/** What the heading says about the event connection. */
export type ConnectionStatus = 'connecting' | 'connected' | 'reconnecting' | 'offline' | 'sign_in_needed';

/** The text so far of the reply a run is streaming. */
export interface StreamingReply {
  runId: string;
  text: string;
  /** the messages this run answers, so the reply shows right after them */
  after?: readonly string[];
}
