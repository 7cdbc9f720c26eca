import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../../api/src/trpc/app-router.ts';

export type { VisitorEvent } from '../../../api/src/events/event-types.ts';
export type { AttentionCounts, Attention } from '../../../api/src/shared/attention.ts';

type Outputs = inferRouterOutputs<AppRouter>;

/** A conversation as the server describes it (title, unread metadata, live state). */
export type ConversationView = Outputs['conversation']['list']['conversations'][number];
/** A stored message as the server describes it. */
export type MessageView = Outputs['conversation']['get']['messages'][number];
/** What `session.start` answers. */
export type Session = Outputs['session']['start'];

/**
 * A message the thread shows: a stored one, or the visitor's own optimistic copy that the
 * server has not acknowledged yet (`pending`), or one it refused (`sendError`).
 */
export interface ThreadMessage extends MessageView {
  pending?: boolean;
  sendError?: string;
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
