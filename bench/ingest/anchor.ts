import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { preciseNow, rounded, summarize, type Summary } from '../stats.ts';

export interface AnchorResult {
  connections: number;
  inserts: number;
  insertsPerSecond: number;
  latencyMs: Summary;
}

/**
 * The physical anchor: single-row inserts into a scratch copy of "Message" (`LIKE … INCLUDING
 * ALL`: the same columns, generated tsvector, defaults and all five indexes, GIN included, plus
 * the conversation foreign key), each its own committed transaction, from `connections`
 * node-postgres connections in a closed loop for `durationMs`. No app, no ORM, no HTTP: the most
 * sends/s this PostgreSQL could durably take if a send were nothing but its row.
 */
export async function measureInsertAnchor(
  databaseUrl: string,
  targets: { conversationId: string; visitorId: string }[],
  opts: { connections: number; durationMs: number },
): Promise<AnchorResult> {
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  const clients: pg.Client[] = [];
  try {
    await admin.query(`DROP TABLE IF EXISTS ingest_anchor`);
    await admin.query(`CREATE TABLE ingest_anchor (LIKE "Message" INCLUDING ALL)`);
    await admin.query(`ALTER TABLE ingest_anchor ADD FOREIGN KEY ("conversationId") REFERENCES "Conversation"(id) ON DELETE CASCADE`);
    for (let i = 0; i < opts.connections; i++) {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      clients.push(client);
    }
    const latencies: number[] = [];
    const end = preciseNow() + opts.durationMs;
    const started = preciseNow();
    await Promise.all(
      clients.map(async (client, i) => {
        const target = targets[i % targets.length]!;
        while (preciseNow() < end) {
          const t0 = preciseNow();
          await client.query({
            name: 'anchor-insert',
            text: `INSERT INTO ingest_anchor (id, "conversationId", "visitorId", role, content, "clientMessageId", state)
                   VALUES (gen_random_uuid(), $1, $2, 'user', $3, $4, 'pending')`,
            values: [target.conversationId, target.visitorId, 'one more thing about my order', randomUUID()],
          });
          latencies.push(preciseNow() - t0);
        }
      }),
    );
    const seconds = (preciseNow() - started) / 1000;
    return {
      connections: opts.connections,
      inserts: latencies.length,
      insertsPerSecond: Math.round(latencies.length / seconds),
      latencyMs: rounded(summarize(latencies)),
    };
  } finally {
    await Promise.allSettled(clients.map((client) => client.end()));
    await admin.query(`DROP TABLE IF EXISTS ingest_anchor`).catch(() => undefined);
    await admin.end();
  }
}
