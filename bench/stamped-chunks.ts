import { preciseNow } from './stats.ts';

const STAMP = /⟨t:(\d+(?:\.\d+)?)⟩/g;

/**
 * Content chunks for the local model server that carry the moment each one is *written*, as
 * `⟨t:1764459123456.789⟩ `.
 *
 * The model server plans a whole reply before streaming it, so a plain string would carry the
 * planning time and every later chunk would look slower by its queue position. Each chunk is
 * therefore an object that renders its stamp in `toJSON`, which runs inside the
 * `JSON.stringify(event)` right before `res.write` (api/src/model-server/stream-reply.ts); `toString`
 * keeps token estimates working. The cast is the price of not changing the server for the bench;
 * {@link assertStampsFollowPacing} notices if the server ever serializes earlier.
 */
export function stampedChunks(count: number): string[] {
  return Array.from(
    { length: count },
    () => ({ toJSON: () => `⟨t:${preciseNow().toFixed(3)}⟩ `, toString: () => '⟨t:0⟩ ' }) as unknown as string,
  );
}

/** The send times carried by a piece of streamed text (one per chunk it contains). */
export function readStamps(text: string): number[] {
  return [...text.matchAll(STAMP)].map((match) => Number(match[1]));
}

/**
 * Throws when the stamps of one stream are not spread out by its pacing: then they were taken
 * before the chunks were written and the latencies computed from them would be meaningless.
 */
export function assertStampsFollowPacing(stamps: readonly number[], chunkDelayMs: number): void {
  if (stamps.length < 2) return;
  const spread = stamps.at(-1)! - stamps[0]!;
  const expected = (stamps.length - 1) * chunkDelayMs;
  if (spread < expected / 2) {
    throw new Error(
      `chunk stamps span ${spread.toFixed(1)} ms, expected about ${expected} ms: the model server no longer stamps at write time`,
    );
  }
}
