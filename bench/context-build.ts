import { claimBatch } from '../api/src/chat/schedule/claim-batch.ts';
import { loadContext } from '../api/src/chat/context/load-context.ts';
import type { TestHeed } from '../test/support/harness.ts';
import { preciseNow, rounded, summarize, type Summary } from './stats.ts';
import { formatSection, formatTable } from './table.ts';

export interface ContextBuildResult {
  /** context reads per size */
  reads: number;
  sizes: { earlierMessages: number; seedMs: number; buildMs: Summary; promptMessages: number }[];
}

const SIZES = [100, 10_000, 100_000];
const READS = 30;

/**
 * The figure "context build time for a batch in a conversation with 100, 10,000 and 100,000
 * earlier messages": one conversation per size, its history seeded in SQL, one pending
 * visitor message claimed as a batch, then `loadContext` (every read the run makes before
 * the model call: history window, questions, todos, recall, and the prompt) timed `READS`
 * times. It should be flat (the history is read by (conversationId, seq) with a limit and cut
 * to the token budget). It was not: p50 7.5 ms at 100 earlier messages, 23 ms at 10,000, 108 ms
 * at 100,000 (busy machine); profiled at 100,000: history 3.7 ms, claimed rows 1.7, todos 0.6,
 * questions 3.7, recall 43 ms, because recall ranked every earlier visitor message matching the
 * batch's words (here all 50,000 visitor messages share "delivery"). Recall now ranks the matches
 * among the visitor's newest messages plus the older matches of rare words (chat/context/recall.ts).
 */
export async function measureContextBuild(heed: TestHeed): Promise<ContextBuildResult> {
  const visitor = await heed.visitor();
  const sizes: ContextBuildResult['sizes'] = [];
  for (const earlier of SIZES) {
    const conversationId = await visitor.conversation();
    const t0 = preciseNow();
    await heed.services.db.$executeRaw`
      INSERT INTO "Message" (id, "conversationId", "visitorId", role, content, state, "createdAt")
      SELECT gen_random_uuid(), ${conversationId}::uuid, ${visitor.visitorId}::uuid,
             (CASE WHEN i % 2 = 0 THEN 'user' ELSE 'assistant' END)::"MessageRole",
             CASE WHEN i % 2 = 0 THEN 'Question ' || i || ' about delivery times and returns to Oslo'
                  ELSE 'Answer ' || i || ': parcels to Norway take three to five working days.' END,
             (CASE WHEN i % 2 = 0 THEN 'answered' END)::"MessageState",
             now() - make_interval(secs => ${earlier} - i)
      FROM generate_series(0, ${earlier - 1}) AS i`;
    // what autovacuum's analyze does after a table grows by a tenth: without it the planner, still
    // believing the visitor has a few hundred rows, sorts all of them for recall's newest-first walk
    await heed.services.db.$executeRaw`ANALYZE "Message"`;
    const seedMs = preciseNow() - t0;
    await visitor.send(conversationId, 'And what does express delivery cost?');
    const batch = await claimBatch(heed.services, { conversationId, workerId: 'bench', leaseMs: 600_000 });
    if (!batch) throw new Error('the batch was not claimed');
    let prompt = 0;
    const samples: number[] = [];
    for (let i = 0; i < READS + 3; i++) {
      const start = preciseNow();
      const messages = await loadContext(heed.services.sql, batch, {
        tokenBudget: heed.config.CONTEXT_TOKEN_BUDGET,
        spendCapUsd: heed.config.SPEND_CAP_USD_PER_DAY,
      });
      if (i >= 3) samples.push(preciseNow() - start); // the first reads warm the caches
      prompt = messages.length;
    }
    sizes.push({ earlierMessages: earlier, seedMs: Math.round(seedMs), buildMs: rounded(summarize(samples)), promptMessages: prompt });
  }
  return { reads: READS, sizes };
}

export function formatContextBuild(r: ContextBuildResult): string {
  return formatSection(
    '7. Context build for one batch, by conversation length',
    [
      `loadContext (history window, questions, todos, recall, the run's checks, prompt) ${r.reads} times per size, no worker running; the history is cut to CONTEXT_TOKEN_BUDGET`,
    ],
    formatTable(
      ['earlier messages', 'p50 ms', 'p99 ms', 'max ms', 'prompt messages', 'seed ms'],
      r.sizes.map((s) => [
        String(s.earlierMessages),
        s.buildMs.p50,
        s.buildMs.p99,
        s.buildMs.max,
        String(s.promptMessages),
        String(s.seedMs),
      ]),
    ),
  );
}
