import type { Db } from '../db/client.ts';

/** What the console's proactive card shows for a site: messages delivered per kind, refusals per reason. */
export interface ProactiveStats {
  delivered: { kind: 'intent' | 'check_in' | 'server'; count: number }[];
  refused: { reason: string; count: number }[];
}

/**
 * The last `days` UTC days (today included): delivered unsolicited messages by kind (from the
 * requests) and refused or ignored intents and check-ins by reason (from the daily counts).
 */
export async function proactiveStats(db: Db, siteId: string, days: number): Promise<ProactiveStats> {
  const [delivered, refused] = await Promise.all([
    db.$queryRaw<{ kind: ProactiveStats['delivered'][number]['kind']; count: number }[]>`
      SELECT kind::text AS kind, count(*)::int AS count FROM "ProactiveRequest"
      WHERE "siteId" = ${siteId}::uuid AND status = 'delivered'
        AND "createdAt" >= (((now() AT TIME ZONE 'UTC')::date - ${days - 1}::int)::timestamp AT TIME ZONE 'UTC')
      GROUP BY kind ORDER BY count DESC, kind`,
    db.$queryRaw<{ reason: string; count: number }[]>`
      SELECT reason, sum(count)::int AS count FROM "ProactiveRefusal"
      WHERE "siteId" = ${siteId}::uuid AND day >= (now() AT TIME ZONE 'UTC')::date - ${days - 1}::int
      GROUP BY reason ORDER BY count DESC, reason`,
  ]);
  return { delivered, refused };
}
