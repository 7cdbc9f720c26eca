import { tracked } from '@trpc/server';
import { z } from 'zod';
import { visitorEvents } from '../../events/visitor-events.ts';
import type { VisitorEvent } from '../../events/event-types.ts';
import { router, streamProcedure, visitorProcedure } from '../trpc.ts';
import { signingKeys } from '../../auth/signing-keys.ts';
import { issueStreamTicket } from '../../auth/stream-ticket.ts';
import { eventId } from '../inputs.ts';
import { openStreamSlot } from '../../limits/guards.ts';

export const eventsRouter = router({
  /**
   * A short-lived ticket for one event-stream connection (`STREAM_TICKET_TTL_MS`, 2 min by
   * default): the stream carries it in its URL instead of the visitor token. The widget
   * asks for a new one for every connection.
   */
  ticket: visitorProcedure.mutation(({ ctx }) => {
    const ttlMs = ctx.services.config.STREAM_TICKET_TTL_MS;
    return { ticket: issueStreamTicket(signingKeys(ctx.services.config), ctx.visitor, { ttlMs }), expiresInMs: ttlMs };
  }),

  /**
   * Everything that happens to the visitor's conversations, over SSE. Durable events are
   * `tracked` with their log id, so a reconnect resumes after the last one received;
   * reply deltas and snapshots are untracked (the stored reply supersedes them).
   * Start from the `cursor` of `conversation.list` / `conversation.get`. Authenticated by a
   * stream ticket (`ticket` connection param), never by the visitor token. A visitor (and a
   * client address) holds a few streams at once (`streamsPerVisitor`, `streamsPerIp`); one
   * more ends at once with TOO_MANY_REQUESTS inside the stream.
   */
  subscribe: streamProcedure.input(z.strictObject({ lastEventId: eventId.nullish() }).optional()).subscription(async function* ({ ctx, input, signal }) {
    const abort = signal ?? new AbortController().signal;
    // a slot per open stream (per visitor and per address), given back when the stream ends
    const slot = await openStreamSlot(ctx);
    const { metrics } = ctx.services;
    metrics.sseConnections.inc();
    try {
      for await (const item of visitorEvents(ctx.services, ctx.visitor.visitorId, input?.lastEventId ?? null, abort)) {
        const event: VisitorEvent = item.id === null ? item.event : { ...item.event, eventId: item.id };
        yield item.id === null ? event : tracked(item.id, event);
      }
    } finally {
      metrics.sseConnections.dec();
      await slot.release();
    }
  }),
});
