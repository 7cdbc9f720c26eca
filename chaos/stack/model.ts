import { isTitleRequest, demoTitleReply } from '../../api/src/model-server/demo-title.ts';
import { startModelServer, type ModelServer } from '../../api/src/model-server/server.ts';

/** Words every reply carries after its request tag: 16 streamed tokens, ~30 ms apart. */
const FILLER = 'thanks for writing, every word you sent was read and this reply covers all of it in one go.';

/** Milliseconds between two streamed tokens: a reply takes ~0.5 s, long enough to be cut by a fault. */
export const TOKEN_DELAY_MS = 30;

/**
 * The one reply the model gives to request `id` (the model server numbers requests 1, 2, 3…).
 * The tag ties a stored reply to the exact prompt that produced it; the full text is what a
 * stored reply must equal (anything shorter was cut).
 */
export const scriptedReply = (id: number): string => `Reply r${id}: ${FILLER}`;

/** Reads the request id back out of a stored reply; null when it is not one of ours. */
export function replyRequestId(content: string): number | null {
  const match = /^Reply r(\d+): /.exec(content);
  return match ? Number(match[1]) : null;
}

/**
 * The recording OpenAI-compatible model server of the run, in the suite's own process (so its
 * recordings are at hand for the checker): every chat request gets `scriptedReply(id)`,
 * streamed word by word with a small delay, so runs are in flight when faults land.
 */
export function startChaosModel(): Promise<ModelServer> {
  return startModelServer({
    respond: (req) =>
      isTitleRequest(req.body) ? { text: demoTitleReply(req.body) } : { text: scriptedReply(req.id), chunkDelayMs: TOKEN_DELAY_MS },
  });
}
