import pg from 'pg';
import type { RecordedRequest } from '../../api/src/model-server/types.ts';
import type { Fault } from '../faults/controller.ts';
import type { Received } from '../load/event-stream.ts';
import type { Tapped } from '../load/redis-tap.ts';
import type { SentMessage } from '../load/visitors.ts';

export interface MessageRow {
  id: string;
  conversationId: string;
  role: 'user' | 'assistant' | 'operator';
  content: string;
  clientMessageId: string | null;
  state: string | null;
  runId: string | null;
  error: string | null;
  createdAt: number;
}

export interface RunRow {
  id: string;
  conversationId: string;
  fence: number;
  status: string;
  workerId: string;
  error: string | null;
  startedAt: number;
  endedAt: number | null;
}

export interface EventRow {
  id: bigint;
  visitorId: string;
  conversationId: string | null;
  type: string;
  runId: string | null;
  claimedMessageIds: string[];
}

export interface StreamRecord {
  visitorId: string;
  startCursor: string;
  connections: number;
  received: Received[];
}

/** Everything the checker judges: the database after the run, and what the run's observers recorded. */
export interface Facts {
  messages: MessageRow[];
  runs: RunRow[];
  events: EventRow[];
  requests: RecordedRequest[];
  sent: SentMessage[];
  streams: StreamRecord[];
  tapped: Tapped[];
  /** the faults injected, for context in the examples */
  faults?: Fault[];
}

/** Reads the run's rows with plain SQL (times as ms since the epoch, like the recordings'). */
export async function readDatabase(url: string): Promise<Pick<Facts, 'messages' | 'runs' | 'events'>> {
  const client = new pg.Client({ connectionString: url, application_name: 'heed-chaos-checker' });
  await client.connect();
  try {
    const messages = await client.query(
      `SELECT id, "conversationId", role, content, "clientMessageId", state, "runId", error, (extract(epoch FROM "createdAt") * 1000)::float8 AS "createdAt"
       FROM "Message" ORDER BY seq`,
    );
    const runs = await client.query(
      `SELECT id, "conversationId", fence, status, "workerId", error,
              (extract(epoch FROM "startedAt") * 1000)::float8 AS "startedAt", (extract(epoch FROM "endedAt") * 1000)::float8 AS "endedAt"
       FROM "Run" ORDER BY "conversationId", fence`,
    );
    const events = await client.query(
      `SELECT id::text, "visitorId", "conversationId", type, payload->>'runId' AS "runId", payload->'claimedMessageIds' AS claimed FROM "Event" ORDER BY id`,
    );
    return {
      messages: messages.rows as MessageRow[],
      runs: runs.rows as RunRow[],
      events: events.rows.map(
        (r: {
          id: string;
          visitorId: string;
          conversationId: string | null;
          type: string;
          runId: string | null;
          claimed: string[] | null;
        }) => ({
          id: BigInt(r.id),
          visitorId: r.visitorId,
          conversationId: r.conversationId,
          type: r.type,
          runId: r.runId,
          claimedMessageIds: r.claimed ?? [],
        }),
      ),
    };
  } finally {
    await client.end();
  }
}
