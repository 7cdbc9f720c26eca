import { tracked } from '@trpc/server';
import { z } from 'zod';
import { visitorEvents } from '../../events/visitor-events.ts';
import { router, streamProcedure, visitorProcedure } from '../trpc.ts';
import { signingKeys } from '../../auth/signing-keys.ts';
import { issueStreamTicket } from '../../auth/stream-ticket.ts';
import { eventId } from '../../inputs/fields.ts';
import { openStreamHold, streamedEvent } from '../../events/stream-hold.ts';

/**
 * `events.subscribe`'s input: where to resume (a reconnect's `Last-Event-ID` arrives here
 * too). Shared with the lean SSE route (http/event-stream-route.ts).
 */
export const subscribeInput = z.strictObject({ lastEventId: eventId.nullish() }).optional();

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
   *
   * Over HTTP, a well-formed `GET /trpc/events.subscribe` is served by the lean SSE writer
   * (http/event-stream-route.ts, same bytes, a fraction of the CPU and memory); this
   * procedure stays as the contract (`AppRouter`'s types for the widget and the console)
   * and serves what that route hands back to tRPC (malformed requests, so their errors stay
   * tRPC's own) and in-process callers. Both use the same rules: streamVisitorOf,
   * subscribeInput, openStreamHold, streamedEvent.
   */
  subscribe: streamProcedure.input(subscribeInput).subscription(async function* ({ ctx, input, signal }) {
    const abort = signal ?? new AbortController().signal;
    const hold = await openStreamHold(ctx);
    try {
      for await (const item of visitorEvents(ctx.services, ctx.visitor.visitorId, input?.lastEventId ?? null, abort)) {
        yield item.id === null ? streamedEvent(item) : tracked(item.id, streamedEvent(item));
      }
    } finally {
      await hold.close();
    }
  }),
});
