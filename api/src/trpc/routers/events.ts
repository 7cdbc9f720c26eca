import { tracked } from '@trpc/server';
import { z } from 'zod';
import { visitorEvents } from '../../events/visitor-events.ts';
import type { VisitorEvent } from '../../events/event-types.ts';
import { router, visitorProcedure } from '../trpc.ts';
import { eventId } from '../inputs.ts';

export const eventsRouter = router({
  /**
   * Everything that happens to the visitor's conversations, over SSE. Durable events are
   * `tracked` with their log id, so a reconnect resumes after the last one received;
   * reply deltas and snapshots are untracked (the stored reply supersedes them).
   * Start from the `cursor` of `conversation.list` / `conversation.get`.
   */
  subscribe: visitorProcedure.input(z.strictObject({ lastEventId: eventId.nullish() }).optional()).subscription(async function* ({ ctx, input, signal }) {
    const abort = signal ?? new AbortController().signal;
    for await (const item of visitorEvents(ctx.services, ctx.visitor.visitorId, input?.lastEventId ?? null, abort)) {
      const event: VisitorEvent = item.id === null ? item.event : { ...item.event, eventId: item.id };
      yield item.id === null ? event : tracked(item.id, event);
    }
  }),
});
