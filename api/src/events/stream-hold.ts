import type { VisitorClaims } from '../auth/visitor-token.ts';
import { openStreamSlot } from '../limits/guards.ts';
import type { Services } from '../services.ts';
import type { VisitorEvent } from './event-types.ts';
import type { StreamItem } from './visitor-stream.ts';

/** What an open event stream holds until it ends. */
export interface StreamHold {
  /** gives the slot back and counts the stream closed; call it exactly once, when the stream ends */
  close(): Promise<void>;
}

/**
 * Opens one event stream's hold: a slot per visitor and per client address (refused with
 * `too_many_requests` when they are full) and one more in `heed_sse_connections`. The one
 * owner of both rules for the tRPC procedure (`events.subscribe`) and the lean SSE route.
 * @example const hold = await openStreamHold(ctx); try { … } finally { await hold.close() }
 */
export async function openStreamHold(ctx: { services: Services; ip: string; visitor: VisitorClaims }): Promise<StreamHold> {
  const slot = await openStreamSlot(ctx);
  const { metrics } = ctx.services;
  metrics.sseConnections.inc();
  return {
    close: async () => {
      metrics.sseConnections.dec();
      await slot.release();
    },
  };
}

/** The event as a stream sends it: a durable event names its log id as `eventId`, so a client can resume after it. */
export function streamedEvent(item: StreamItem): VisitorEvent {
  return item.id === null ? item.event : { ...item.event, eventId: item.id };
}
