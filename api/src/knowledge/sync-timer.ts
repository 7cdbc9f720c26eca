import { Prisma } from '../db/client.ts';
import { syncSource, type KnowledgeWriter } from './sync-source.ts';
import { embedDue } from './embed-pending.ts';
import { startPassTimer, type PassTimer } from '../timers/pass-timer.ts';

/** How often a process looks for sources due a sync: a daily schedule needs no finer clock. */
export const SYNC_LOOK_EVERY_MS = 60_000;

/**
 * Syncs the knowledge sources whose time has come (`nextSyncAt`), one at a time, then embeds
 * what is still to embed (embed-pending.ts), in every process that runs reply workers. The claim inside `syncSource` (a fence and a lease) keeps two
 * processes from syncing one source; a source whose sync died with its worker is due again once
 * its lease lapses. `intervalMs = 0` turns it off (tests sync on their own).
 * @example const timer = startSyncTimer(services); … await timer.stop();
 */
export function startSyncTimer(s: KnowledgeWriter, intervalMs = SYNC_LOOK_EVERY_MS): PassTimer {
  return startPassTimer(
    intervalMs,
    async (signal) => {
      await syncDue(s, () => signal.aborted);
      // what an embeddings server that was down missed, and everything again after a model change
      if (!signal.aborted) await embedDue({ sql: s.sql, embedder: s.knowledge.embedder, logger: s.logger });
    },
    (err) => s.logger.error({ err }, 'knowledge sync pass failed'),
  );
}

/** Syncs the sources due now, oldest due first, until none is left or the process stops. */
async function syncDue(s: KnowledgeWriter, stopped: () => boolean): Promise<void> {
  while (!stopped()) {
    const [due] = await s.db.$queryRaw<{ id: string }[]>(Prisma.sql`
      SELECT id FROM "KnowledgeSource"
      WHERE kind = 'site' AND "nextSyncAt" <= now() AND ("syncLeaseUntil" IS NULL OR "syncLeaseUntil" < now())
      ORDER BY "nextSyncAt" LIMIT 1`);
    if (!due) return;
    // whatever came of it (synced, or taken by another process meanwhile), the next look skips it
    await syncSource(s, due.id);
  }
}
