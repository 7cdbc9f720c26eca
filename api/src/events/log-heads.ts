import type { Db } from '../db/client.ts';

/**
 * How long head requests gather before one query answers them all. Quiet streams' timers
 * fire spread out, so without a window every check would still be its own query; 50 ms is
 * nothing beside the 5 s `SSE_CATCHUP_MS` a lost wake-up already waits.
 */
const GATHER_MS = 50;

/**
 * The newest event-log id of many visitors, read together: one query per `GATHER_MS` however
 * many streams ask. A quiet stream asks before it re-reads the log, and reads only when the
 * head moved past its cursor. Measured with 5,000 quiet streams on one API process (bench/fanout.ts):
 * each stream re-reading the log itself every 5 s was 1,000 Prisma queries/s and kept the
 * process busy before a single event flowed; the gathered check is about 20 small queries/s.
 */
export class LogHeads {
  private waiting = new Map<string, { resolve: (head: bigint) => void; reject: (err: unknown) => void }[]>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly db: Db) {}

  /** The visitor's newest event id (0 when it has none). */
  head(visitorId: string): Promise<bigint> {
    return new Promise((resolve, reject) => {
      const list = this.waiting.get(visitorId);
      if (list) list.push({ resolve, reject });
      else this.waiting.set(visitorId, [{ resolve, reject }]);
      this.timer ??= setTimeout(() => void this.flush(), GATHER_MS);
    });
  }

  private async flush(): Promise<void> {
    const batch = this.waiting;
    this.waiting = new Map();
    this.timer = null;
    try {
      // one index probe per visitor ((visitorId, id) index), not a scan of their rows
      const rows = await this.db.$queryRaw<{ visitorId: string; head: bigint | null }[]>`
        SELECT v.id::text AS "visitorId", (SELECT max(e.id) FROM "Event" e WHERE e."visitorId" = v.id) AS head
        FROM unnest(${[...batch.keys()]}::text[]::uuid[]) AS v(id)`;
      const heads = new Map(rows.map((r) => [r.visitorId, r.head === null ? 0n : BigInt(r.head)]));
      for (const [visitorId, list] of batch) for (const w of list) w.resolve(heads.get(visitorId) ?? 0n);
    } catch (err) {
      for (const list of batch.values()) for (const w of list) w.reject(err);
    }
  }
}

const perDb = new WeakMap<Db, LogHeads>();

/** The process's `LogHeads` for this database (one per client, so one query per window). */
export function logHeads(db: Db): LogHeads {
  let heads = perDb.get(db);
  if (!heads) perDb.set(db, (heads = new LogHeads(db)));
  return heads;
}
