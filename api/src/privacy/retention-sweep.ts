import type { Services } from '../services.ts';
import { startPassTimer, type PassTimer } from '../timers/pass-timer.ts';
import type { DoomedConversation } from './remove-conversations.ts';
import { removeLockedConversations } from './remove-locked.ts';

/**
 * Conversations one transaction removes: its row locks (and the sends to those conversations
 * that wait on them) last milliseconds, however many conversations fell due at once.
 */
const BATCH = 100;
/** A worker process sweeps at its start and then this often. */
const SWEEP_EVERY_MS = 60 * 60 * 1000;

/** What one pass removed. */
export interface RetentionPass {
  sites: number;
  conversations: number;
  /** visitors left without any conversation and not seen within the retention period */
  visitors: number;
}

type SweepServices = Pick<Services, 'db' | 'bus' | 'redis' | 'keys' | 'files' | 'logger'>;

/**
 * Removes every conversation whose last activity (`updatedAt`) is older than its site's
 * "keep conversations for N days", with everything it left behind (removeConversations), then
 * the visitors of those sites who have no conversation left and were not seen for as long
 * (their identity, contact address and pages). Batches of `batch` rows, each taking only rows
 * no other transaction holds (`FOR UPDATE SKIP LOCKED`): any number of workers may sweep at
 * once, and never the same rows. Each site records when its pass finished and how many it removed.
 * The cutoff is the database's clock, the one `updatedAt` is written with.
 * @example const { conversations } = await sweepRetention(services);
 */
export async function sweepRetention(s: SweepServices, opts: { batch?: number; signal?: AbortSignal } = {}): Promise<RetentionPass> {
  const { batch = BATCH, signal } = opts;
  const pass: RetentionPass = { sites: 0, conversations: 0, visitors: 0 };
  const sites = await s.db.site.findMany({ where: { retentionDays: { not: null } }, select: { id: true, retentionDays: true } });
  for (const site of sites) {
    if (signal?.aborted) break;
    const days = site.retentionDays ?? 0;
    let removed = 0;
    for (;;) {
      const n = await sweepBatch(s, site.id, days, batch);
      removed += n;
      if (n < batch || signal?.aborted) break;
    }
    const visitors = await sweepIdleVisitors(s, site.id, days, batch, signal);
    await s.db.site.update({
      where: { id: site.id },
      data: { retentionSweptAt: new Date(), retentionSweptCount: removed },
      select: { id: true },
    });
    pass.sites += 1;
    pass.conversations += removed;
    pass.visitors += visitors;
  }
  return pass;
}

/** One batch of a site's conversations past retention; their visitors' open tabs hear `conversation.deleted`. */
async function sweepBatch(s: SweepServices, siteId: string, days: number, batch: number): Promise<number> {
  const removal = await removeLockedConversations(
    s,
    (tx) => tx.$queryRaw<DoomedConversation[]>`
      SELECT id::text, "visitorId"::text AS "visitorId" FROM "Conversation"
      WHERE "siteId" = ${siteId}::uuid AND "updatedAt" < now() - make_interval(days => ${days}::int)
      ORDER BY "updatedAt" LIMIT ${batch}
      FOR UPDATE SKIP LOCKED`,
    { count: false },
  );
  return removal.conversationIds.length;
}

/** Visitors of the site with no conversation left and not seen within the retention period, in batches. */
async function sweepIdleVisitors(s: SweepServices, siteId: string, days: number, batch: number, signal?: AbortSignal): Promise<number> {
  let removed = 0;
  while (!signal?.aborted) {
    const n = await s.db.$executeRaw`
      DELETE FROM "Visitor" WHERE id IN (
        SELECT v.id FROM "Visitor" v
        WHERE v."siteId" = ${siteId}::uuid AND v."lastSeenAt" < now() - make_interval(days => ${days}::int)
          AND NOT EXISTS (SELECT 1 FROM "Conversation" c WHERE c."visitorId" = v.id)
        LIMIT ${batch}
        FOR UPDATE SKIP LOCKED)`;
    removed += n;
    if (n < batch) break;
  }
  return removed;
}

/**
 * The sweep in a worker process's background: at once when the process starts, then hourly.
 * @example const retention = startRetentionSweep(services); … await retention.stop();
 */
export function startRetentionSweep(s: SweepServices, intervalMs = SWEEP_EVERY_MS): PassTimer {
  return startPassTimer(
    intervalMs,
    async (signal) => {
      const pass = await sweepRetention(s, { signal });
      if (pass.conversations > 0 || pass.visitors > 0) s.logger.info({ pass }, 'retention sweep removed conversations');
    },
    (err) => s.logger.error({ err }, 'retention sweep failed'),
    { atStart: true },
  );
}
