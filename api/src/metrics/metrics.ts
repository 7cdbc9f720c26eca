import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** What the scrape-time gauges read from the process's stores. */
export interface MetricProbes {
  /** queries waiting for a free database connection (pg Pool `waitingCount`) */
  dbPool: () => { waiting: number; total: number; idle: number };
  /** whether Redis answers a ping right now; must settle quickly (see REDIS_PROBE_MS) */
  redisUp: () => Promise<boolean>;
}

/** A scrape waits at most this for Redis: a hung Redis reads as down, not as a hung scrape. */
export const REDIS_PROBE_MS = 500;

/** Sub-second to half a minute: where first tokens and fan-out land, and the model timeout (30 s). */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Runs include debounced tool rounds and retries with backoff, so they reach minutes. */
const RUN_BUCKETS = [0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120];
/** Messages one batch answers (PENDING_MAX_MESSAGES is 20 by default). */
const BATCH_BUCKETS = [1, 2, 3, 5, 8, 13, 20];
/** Sends per group commit (at most GROUP_MAX, 100). */
const SEND_GROUP_BUCKETS = [1, 2, 4, 8, 16, 32, 64, 100];

/**
 * The process's metrics: one registry per process (on `Services`), so the worker, the HTTP
 * layer and the title pass record into the same place and `/metrics` exposes it. Label
 * values are small closed sets only (outcomes, error codes), never ids or text.
 * @example s.metrics.runs.inc({ outcome: 'completed' })
 */
export function createMetrics(probes: MetricProbes) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  return {
    registry,
    sends: new Counter({ name: 'heed_sends_total', help: 'Messages stored by message.send (idempotent replays not counted)', registers }),
    sendGroup: new Histogram({
      name: 'heed_send_group_sends',
      help: 'Sends committed together in one transaction (send-group.ts): 1 while idle, more under load',
      buckets: SEND_GROUP_BUCKETS,
      registers,
    }),
    batches: new Counter({ name: 'heed_batches_total', help: 'Batches claimed by a reply worker', registers }),
    workerPolls: new Counter({
      name: 'heed_worker_polls_total',
      help: 'Due-batch queries of the reply workers (each reads every pending batch): sends share them',
      registers,
    }),
    batchMessages: new Histogram({ name: 'heed_batch_messages', help: 'Messages per claimed batch', buckets: BATCH_BUCKETS, registers }),
    runs: new Counter({ name: 'heed_runs_total', help: 'Reply runs by outcome', labelNames: ['outcome'] as const, registers }),
    firstToken: new Histogram({
      name: 'heed_reply_first_token_seconds',
      help: 'From the claim of a batch to the first reply text relayed to the visitor (context, model latency and retries included)',
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    runDuration: new Histogram({
      name: 'heed_run_duration_seconds',
      help: 'From the claim of a batch to its outcome',
      labelNames: ['outcome'] as const,
      buckets: RUN_BUCKETS,
      registers,
    }),
    modelErrors: new Counter({
      name: 'heed_model_errors_total',
      help: 'Failed reply model attempts by kind (retried or not)',
      labelNames: ['kind'] as const,
      registers,
    }),
    modelRetries: new Counter({
      name: 'heed_model_retries_total',
      help: 'Reply model attempts retried after a transient error',
      registers,
    }),
    sseConnections: new Gauge({ name: 'heed_sse_connections', help: 'Event streams open in this process', registers }),
    sseStalled: new Gauge({
      name: 'heed_sse_streams_stalled',
      help: "Event streams waiting for a slow or stalled client's socket to drain (their live deltas queue and go out merged)",
      registers,
    }),
    sseStallClosed: new Counter({
      name: 'heed_sse_stalled_closed_total',
      help: 'Event streams closed because their client took nothing for SSE_STALL_MS (it reconnects from its last event id)',
      registers,
    }),
    fanoutLag: new Histogram({
      name: 'heed_event_fanout_lag_seconds',
      help: 'From the publish after a commit (durable) or of a reply delta (live) to its hand-over to a subscriber stream in this process',
      labelNames: ['kind'] as const,
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    titleChecks: new Counter({
      name: 'heed_title_checks_total',
      help: 'Title checks by outcome',
      labelNames: ['outcome'] as const,
      registers,
    }),
    titleCostUsd: new Counter({
      name: 'heed_title_cost_usd_total',
      help: 'Model spend of title checks, USD (the worst case when the provider reports no usage)',
      registers,
    }),
    dbPool: new Gauge({
      name: 'heed_db_pool_clients',
      help: 'Database pool clients: waiting (queries queued for a connection), total, idle; read at scrape',
      labelNames: ['state'] as const,
      registers,
      collect() {
        const pool = probes.dbPool();
        for (const state of ['waiting', 'total', 'idle'] as const) this.set({ state }, pool[state]);
      },
    }),
    redisUp: new Gauge({
      name: 'heed_redis_up',
      help: `1 when Redis answered a ping within ${REDIS_PROBE_MS} ms at scrape, else 0`,
      registers,
      async collect() {
        this.set((await probes.redisUp()) ? 1 : 0);
      },
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
