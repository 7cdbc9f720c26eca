import { randomUUID } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import pg from 'pg';
import { sweepRetention } from '../api/src/privacy/retention-sweep.ts';
import type { TestHeed, TestVisitor } from '../test/support/harness.ts';
import { rounded, summarize, type Summary } from './stats.ts';
import { describeSettings, serviceLogNote, settingsOf, type StackSettings } from './stack.ts';
import { formatSection, formatTable } from './table.ts';

/** What every seeded conversation holds: an answered exchange of a few turns, as the visitor's log recorded it. */
const SHAPE = { messages: 6, events: 6, runs: 1, conversationsPerVisitor: 2, retentionDays: 30, ageDays: 40 };
/** The sweep's batch, and the anchor's: conversations per statement (or transaction). */
const BATCH = 100;
const VISITORS = 8;
/** Each send window; the sweep under load is seeded to outlast it. */
const WINDOW_MS = 5_000;
const WARMUP_MS = 1_000;

export interface RemovalFigures {
  conversations: number;
  ms: number;
  conversationsPerSecond: number;
}

export interface SendWindow {
  ms: number;
  sends: number;
  rejected: number;
  sendsPerSecond: number;
  latencyMs: Summary;
  /** how late timers fired: the sweep shares this process's event loop with the API */
  eventLoopDelayP99Ms: number;
}

export interface RetentionSweepResult {
  settings: StackSettings;
  /** conversations in each seeded set of the throughput part */
  conversations: number;
  seedMs: number;
  sweep: RemovalFigures;
  /** bare `DELETE … LIMIT 100` loops (cascade) plus the matching Event rows: the least any sweep must do */
  anchor: RemovalFigures;
  /** rows of the removed conversations still present afterwards (conversations, messages, their events): 0 expected */
  leftBehind: { sweep: number; anchor: number };
  /** conversations seeded for the sweep that runs during sends */
  underLoadConversations: number;
  withoutSweep: SendWindow;
  duringSweep: SendWindow;
  /** what the sweep removed while the visitors sent, and whether it was still running when the window closed */
  sweepUnderLoad: RemovalFigures & { outlastedWindow: boolean };
  notes: string[];
}

/**
 * The retention sweep (api/src/privacy/retention-sweep.ts) on a stack's own database. First its
 * throughput: two identical sets of conversations 40 days old on sites keeping 30, one removed by
 * `sweepRetention`, the other, as the anchor of the same run, by bare batched deletes. Then what
 * it costs the sends it must not stall: 8 visitors in a closed loop, once without a sweep (the
 * anchor, right before) and once while a sweep of a bigger set runs. Sizes:
 * `BENCH_RETENTION_CONVERSATIONS` (5,000 per set).
 */
export async function measureRetentionSweep(heed: TestHeed): Promise<RetentionSweepResult> {
  const n = Number(process.env.BENCH_RETENTION_CONVERSATIONS ?? 5_000);
  const db = heed.services.db;
  const client = new pg.Client({ connectionString: heed.config.DATABASE_URL });
  await client.connect();
  try {
    // One set at a time, each seeded onto a vacuumed database: a removal's cost grows with the
    // tables it deletes from, so both must find them the same size.
    const bare = await createSite(heed, 'bare', null);
    let seedMs = await seedOldConversations(heed.config.DATABASE_URL, bare, 'b', n);
    await client.query('VACUUM ANALYZE');
    const anchor = await bareDeletes(client, bare);
    await client.query('VACUUM ANALYZE');
    const swept = await createSite(heed, 'swept', SHAPE.retentionDays);
    seedMs += await seedOldConversations(heed.config.DATABASE_URL, swept, 'a', n);
    await client.query('VACUUM ANALYZE');
    const sweepStarted = performance.now();
    const pass = await sweepRetention(heed.services, { batch: BATCH });
    const sweep = figures(pass.conversations, performance.now() - sweepStarted);
    const leftBehind = { sweep: await leftOf(client, swept), anchor: await leftOf(client, bare) };

    // enough for the sweep to outlast the window at half the rate it had alone (in thousands)
    const outlasting = Math.ceil((sweep.conversationsPerSecond * 2 * WINDOW_MS) / 1000 / 1000) * 1000;
    const underLoadConversations = Math.min(60_000, Math.max(n, outlasting));
    const busy = await createSite(heed, 'busy', null);
    await seedOldConversations(heed.config.DATABASE_URL, busy, 'c', underLoadConversations);
    await client.query('VACUUM ANALYZE');

    const senders = await Promise.all(
      Array.from({ length: VISITORS }, async () => {
        const visitor = await heed.visitor();
        return { visitor, conversationId: await visitor.conversation() };
      }),
    );
    await sendLoop(senders, WARMUP_MS);
    const withoutSweep = await sendLoop(senders, WINDOW_MS);

    await db.site.update({ where: { id: busy }, data: { retentionDays: SHAPE.retentionDays }, select: { id: true } });
    const abort = new AbortController();
    let sweepEndedAt: number | null = null;
    const underLoadStarted = performance.now();
    const sweeping = sweepRetention(heed.services, { batch: BATCH, signal: abort.signal }).finally(() => {
      sweepEndedAt = performance.now();
    });
    const duringSweep = await sendLoop(senders, WINDOW_MS, () => sweepEndedAt !== null);
    const outlastedWindow = sweepEndedAt === null;
    abort.abort();
    const underLoad = await sweeping;

    return {
      settings: settingsOf(heed),
      conversations: n,
      seedMs,
      sweep,
      anchor,
      leftBehind,
      underLoadConversations,
      withoutSweep,
      duringSweep,
      sweepUnderLoad: {
        ...figures(underLoad.conversations, (sweepEndedAt ?? performance.now()) - underLoadStarted),
        outlastedWindow,
      },
      notes: serviceLogNote(heed),
    };
  } finally {
    await client.end();
  }
}

async function createSite(heed: TestHeed, name: string, retentionDays: number | null): Promise<string> {
  const site = await heed.services.db.site.create({
    data: { key: `bench-retention-${name}`, name: `Retention ${name}`, retentionDays },
    select: { id: true },
  });
  return site.id;
}

/**
 * Seeds `conversations` conversations on a site, last active 40 days ago (a second apart), with
 * SHAPE's messages, run and log events, in set-based statements as console-list-seed.ts does. Their
 * visitors were seen today: the sweep's pass over idle visitors finds none, so both removals do
 * the same work. `tag` keeps each set's md5-derived ids apart.
 */
async function seedOldConversations(databaseUrl: string, siteId: string, tag: string, conversations: number): Promise<number> {
  const started = performance.now();
  const uid = (key: string) => `overlay(overlay(md5('${tag}-' || ${key}) placing '4' from 13) placing '8' from 17)::uuid`;
  const visitors = Math.ceil(conversations / SHAPE.conversationsPerVisitor);
  const rows = `(SELECT i, now() - interval '${SHAPE.ageDays} days' - i * interval '1 second' AS t FROM generate_series(0, ${conversations - 1}) AS i) c`;
  const visitor = uid(`'v' || (i % ${visitors})`);
  const content = `CASE WHEN j % 2 = 1 THEN 'Hello, my order ' || i || ' has not arrived yet, could you check where the parcel is?'
                        ELSE 'Thanks for asking about order ' || i || '. The courier has it and it should arrive tomorrow.' END`;
  const statements = [
    `INSERT INTO "Visitor" (id, "siteId", "createdAt", "lastSeenAt")
     SELECT ${uid(`'v' || i`)}, $1::uuid, now() - interval '60 days', now() FROM generate_series(0, ${visitors - 1}) AS i`,
    `INSERT INTO "Conversation" (id, "siteId", "visitorId", fence, title, "titleSource", "titleState", "lastAssistantAt", excerpt, "createdAt", "updatedAt")
     SELECT ${uid(`'c' || i`)}, $1::uuid, ${visitor}, 1, 'Where is order ' || i, 'generated', 'generated', t,
            'Thanks for asking about order ' || i, t - interval '10 minutes', t
     FROM ${rows}`,
    `INSERT INTO "Run" (id, "conversationId", fence, status, "workerId", "leaseUntil", attempts, "startedAt", "firstTokenAt", "endedAt")
     SELECT ${uid(`'r' || i`)}, ${uid(`'c' || i`)}, 1, 'completed', 'bench', t, 1, t - interval '5 minutes', t - interval '299 seconds', t
     FROM ${rows}`,
    `INSERT INTO "Message" (id, "conversationId", "visitorId", role, content, state, "runId", "createdAt")
     SELECT ${uid(`'m' || i || '-' || j`)}, ${uid(`'c' || i`)}, ${visitor},
            (CASE WHEN j % 2 = 1 THEN 'user' ELSE 'assistant' END)::"MessageRole", ${content},
            (CASE WHEN j % 2 = 1 THEN 'answered' END)::"MessageState", ${uid(`'r' || i`)}, t - (${SHAPE.messages} - j) * interval '1 minute'
     FROM ${rows}, generate_series(1, ${SHAPE.messages}) AS j`,
    // the log's copies: each event carries its message, as message.created and reply.completed do
    `INSERT INTO "Event" ("visitorId", "conversationId", type, payload, "createdAt")
     SELECT ${visitor}, ${uid(`'c' || i`)}, CASE WHEN j % 2 = 1 THEN 'message.created' ELSE 'reply.completed' END,
            jsonb_build_object('type', CASE WHEN j % 2 = 1 THEN 'message.created' ELSE 'reply.completed' END,
                               'conversationId', ${uid(`'c' || i`)},
                               'message', jsonb_build_object('id', ${uid(`'m' || i || '-' || j`)}, 'content', ${content})),
            t - (${SHAPE.events} - j) * interval '1 minute'
     FROM ${rows}, generate_series(1, ${SHAPE.events}) AS j`,
  ];
  const seeder = new pg.Client({ connectionString: databaseUrl });
  await seeder.connect();
  try {
    // consistent by construction: skip the foreign-key triggers' lookup per row
    await seeder.query('SET session_replication_role = replica');
    for (const sql of statements) await seeder.query(sql, sql.includes('$1') ? [siteId] : []);
    return Math.round(performance.now() - started);
  } finally {
    await seeder.end();
  }
}

/**
 * The anchor: one statement per batch of 100, in autocommit, deleting the conversations (their
 * messages and run go by cascade) and, in the same statement, their log events.
 */
async function bareDeletes(client: pg.Client, siteId: string): Promise<RemovalFigures> {
  const started = performance.now();
  let removed = 0;
  for (;;) {
    const { rows } = await client.query<{ n: number }>(
      `WITH gone AS (
         DELETE FROM "Conversation" WHERE id IN (
           SELECT id FROM "Conversation"
           WHERE "siteId" = $1::uuid AND "updatedAt" < now() - make_interval(days => $2::int) LIMIT $3)
         RETURNING id, "visitorId"),
       events AS (DELETE FROM "Event" e USING gone WHERE e."visitorId" = gone."visitorId" AND e."conversationId" = gone.id)
       SELECT count(*)::int AS n FROM gone`,
      [siteId, SHAPE.retentionDays, BATCH],
    );
    const n = rows[0]?.n ?? 0;
    removed += n;
    if (n < BATCH) break;
  }
  return figures(removed, performance.now() - started);
}

/** Rows the site's removed conversations left: conversations, messages and their events (not the sweep's `conversation.deleted`); runs go with their conversation by foreign key. */
async function leftOf(client: pg.Client, siteId: string): Promise<number> {
  const { rows } = await client.query<{ n: number }>(
    `SELECT (SELECT count(*) FROM "Conversation" WHERE "siteId" = $1::uuid)
          + (SELECT count(*) FROM "Message" m JOIN "Visitor" v ON v.id = m."visitorId" WHERE v."siteId" = $1::uuid)
          + (SELECT count(*) FROM "Event" e JOIN "Visitor" v ON v.id = e."visitorId"
             WHERE v."siteId" = $1::uuid AND e.type <> 'conversation.deleted') AS n`,
    [siteId],
  );
  return Number(rows[0]?.n ?? 0);
}

/**
 * Every visitor sends again as soon as its previous send returned, for `ms` or until `stop()`
 * says the thing measured beside it has ended (as bench/sustained-sends.ts, with fewer visitors).
 */
async function sendLoop(
  senders: { visitor: TestVisitor; conversationId: string }[],
  ms: number,
  stop: () => boolean = () => false,
): Promise<SendWindow> {
  const latencies: number[] = [];
  let rejected = 0;
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  const started = performance.now();
  const deadline = started + ms;
  await Promise.all(
    senders.map(async ({ visitor, conversationId }, loop) => {
      for (let i = 0; performance.now() < deadline && !stop(); i++) {
        const t0 = performance.now();
        try {
          await visitor.send(conversationId, `retention ${loop}.${i} ${randomUUID().slice(0, 8)}`);
          latencies.push(performance.now() - t0);
        } catch {
          rejected++;
        }
      }
    }),
  );
  const windowMs = performance.now() - started;
  loopDelay.disable();
  return {
    ms: Math.round(windowMs),
    sends: latencies.length,
    rejected,
    sendsPerSecond: Math.round((latencies.length / (windowMs / 1000)) * 10) / 10,
    latencyMs: rounded(summarize(latencies)),
    eventLoopDelayP99Ms: Math.round(loopDelay.percentile(99) / 1e4) / 100,
  };
}

function figures(conversations: number, ms: number): RemovalFigures {
  return { conversations, ms: Math.round(ms), conversationsPerSecond: Math.round(conversations / (ms / 1000)) };
}

const ratio = (a: number, b: number) => (b > 0 && Number.isFinite(a / b) ? `${(a / b).toFixed(2)}×` : '–');

/** The section as printed. */
export function formatRetentionSweep(r: RetentionSweepResult): string {
  const w = (name: string, s: SendWindow) => [
    name,
    String(s.sends),
    s.sendsPerSecond,
    s.latencyMs.p50,
    s.latencyMs.p99,
    s.latencyMs.max,
    s.eventLoopDelayP99Ms,
  ];
  const u = r.sweepUnderLoad;
  return formatSection(
    `12. Retention sweep: ${r.conversations.toLocaleString('en')} old conversations, and sends during a sweep`,
    [
      `each conversation: ${SHAPE.messages} messages, ${SHAPE.events} log events, ${SHAPE.runs} run; last active ${SHAPE.ageDays} days ago on a site keeping ${SHAPE.retentionDays}; batches of ${BATCH}; two sets seeded in ${(r.seedMs / 1000).toFixed(1)} s`,
      `anchor (same run, before the sweep, its own set seeded on the same vacuumed tables): bare DELETE … WHERE id IN (SELECT … LIMIT ${BATCH}) loops, messages and run by cascade, the matching Event rows in the same statement`,
      `rows left behind afterwards (0 expected): sweep ${r.leftBehind.sweep}, anchor ${r.leftBehind.anchor}`,
      `sends: ${VISITORS} visitors, one conversation each, closed loop; without a sweep (the anchor) right before, then during a sweep of ${r.underLoadConversations.toLocaleString('en')} more`,
      `that sweep removed ${u.conversations} in ${(u.ms / 1000).toFixed(1)} s (${u.conversationsPerSecond}/s) ${u.outlastedWindow ? 'and was still running when the window closed' : 'and ENDED BEFORE the window closed (the window stopped with it)'}`,
      describeSettings(r.settings),
      ...r.notes,
    ],
    `${formatTable(
      ['removal', 'conversations/s', 'ms'],
      [
        ['sweepRetention', String(r.sweep.conversationsPerSecond), String(r.sweep.ms)],
        ['bare deletes (anchor)', String(r.anchor.conversationsPerSecond), String(r.anchor.ms)],
        ['sweep ÷ anchor', ratio(r.sweep.conversationsPerSecond, r.anchor.conversationsPerSecond), ratio(r.sweep.ms, r.anchor.ms)],
      ],
    )}\n${formatTable(
      ['sends', 'sends', 'sends/s', 'p50 ms', 'p99 ms', 'max ms', 'loop delay p99 ms'],
      [
        w('without a sweep (anchor)', r.withoutSweep),
        w('during a sweep', r.duringSweep),
        [
          'during ÷ without (goal p99 ≤ ~2×)',
          '',
          ratio(r.duringSweep.sendsPerSecond, r.withoutSweep.sendsPerSecond),
          ratio(r.duringSweep.latencyMs.p50, r.withoutSweep.latencyMs.p50),
          ratio(r.duringSweep.latencyMs.p99, r.withoutSweep.latencyMs.p99),
          ratio(r.duringSweep.latencyMs.max, r.withoutSweep.latencyMs.max),
          '',
        ],
      ],
    )}`,
  );
}
