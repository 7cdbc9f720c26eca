import type { Services } from '../services.ts';
import { streamVisitorEvents, type StreamItem } from './visitor-stream.ts';

export type { StreamItem } from './visitor-stream.ts';

/**
 * A visitor's event stream (visitor-stream.ts) as an async generator, for tRPC's procedure
 * and in-process callers: each item waits until the consumer took the one before, as a
 * pulled stream would, so the stream's queued deltas merge while the consumer is slow.
 * Ends when `signal` aborts or the consumer stops; throws when the stream fails. The lean
 * SSE route (http/event-stream-route.ts) writes the push-based stream to its socket directly.
 * @example for await (const item of visitorEvents(services, visitorId, lastEventId, signal)) send(item);
 */
export async function* visitorEvents(
  s: Services,
  visitorId: string,
  lastEventId: string | null,
  signal: AbortSignal,
): AsyncGenerator<StreamItem> {
  const queue: StreamItem[] = [];
  const hand: {
    /** wakes this generator: an item came, or the stream ended */
    wake: (() => void) | null;
    /** tells the stream the consumer took what it was given */
    taken: (() => void) | null;
    outcome: { failed: false } | { failed: true; error: unknown } | null;
  } = { wake: null, taken: null, outcome: null };
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  signal.addEventListener('abort', onAbort);
  if (signal.aborted) stop.abort();
  const sink = {
    write: (item: StreamItem) => {
      queue.push(item);
      hand.wake?.();
      return false;
    },
    drained: () => new Promise<void>((resolve) => (hand.taken = resolve)),
  };
  const finished = streamVisitorEvents(s, visitorId, lastEventId, sink, stop.signal)
    .then(
      () => void (hand.outcome = { failed: false }),
      (error: unknown) => void (hand.outcome = { failed: true, error }),
    )
    .finally(() => hand.wake?.());
  try {
    for (;;) {
      const item = queue.shift();
      if (item) {
        yield item;
        if (queue.length === 0) hand.taken?.();
        continue;
      }
      if (hand.outcome) {
        if (hand.outcome.failed) throw hand.outcome.error;
        return;
      }
      await new Promise<void>((resolve) => (hand.wake = resolve));
      hand.wake = null;
    }
  } finally {
    stop.abort();
    hand.taken?.();
    signal.removeEventListener('abort', onAbort);
    await finished;
  }
}
