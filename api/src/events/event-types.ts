import type { ConversationView, MessageView } from '../conversations/views.ts';

/**
 * Everything a visitor's subscription can carry. Durable events are rows of the Event
 * log and travel `tracked` with their id; reply deltas and snapshots are ephemeral (the
 * stored reply replaces them) and travel untracked, so they never move `lastEventId`.
 */
export type DurableEvent =
  | { type: 'message.created'; conversationId: string; message: MessageView }
  | { type: 'run.started'; conversationId: string; runId: string; claimedMessageIds: string[] }
  | { type: 'reply.completed'; conversationId: string; runId: string; message: MessageView }
  | { type: 'reply.failed'; conversationId: string; runId: string; message: MessageView }
  | { type: 'conversation.updated'; conversationId: string; conversation: ConversationView }
  /** the visitor deleted it (any of their tabs): it is gone with everything in it */
  | { type: 'conversation.deleted'; conversationId: string };

export type LiveEvent =
  /** `offset` is where `text` starts in the reply so far; clients drop what they already have */
  | { type: 'reply.delta'; conversationId: string; runId: string; offset: number; text: string }
  /** the reply so far, sent once to a subscriber that joins while it streams */
  | { type: 'reply.snapshot'; conversationId: string; runId: string; text: string };

export type VisitorEvent = (DurableEvent | LiveEvent) & { eventId?: string };

export type DurableEventType = DurableEvent['type'];
