import { z } from 'zod';
import { FAULT_KINDS } from './faults/kinds.ts';

/**
 * What a chaos run does, from `CHAOS_*` variables (validated once: a typo fails at start-up).
 * The pipeline's own timings are short on purpose, so that a run of a few minutes crosses
 * many leases, debounces and takeovers: a 2 s lease lets a SIGSTOP "past its lease" last
 * under 4 s, and a 300 ms debounce folds a visitor's quick bursts into multi-message batches.
 */
export const chaosSettingsSchema = z.object({
  /** visitor messages in all; 5,000 is the full suite, a few hundred a quick run */
  CHAOS_MESSAGES: z.coerce.number().int().min(50).max(100_000).default(5000),
  /** conversations they are spread over (two per visitor) */
  CHAOS_CONVERSATIONS: z.coerce.number().int().min(2).max(500).default(50),
  /** how long the visitors take to send everything, seconds; faults run all that time */
  CHAOS_SEND_SECONDS: z.coerce.number().positive().optional(),
  /**
   * how long the drain may wait for the last replies and streams, seconds: its own budget, kept
   * free by ending the sending phase early enough (see RUN_BOUND); at most 150, for sending needs the rest
   */
  CHAOS_DRAIN_S: z.coerce.number().min(0).max(150).default(60),
  /**
   * how many of the sent messages may still be being answered when the drain ends, in percent,
   * on a busy machine or after a drain cut short; past it the run is inconclusive (check/unfinished-bound.ts)
   */
  CHAOS_UNFINISHED_PCT: z.coerce.number().min(0).max(100).default(1),
  /** mean pause between two faults, ms */
  CHAOS_FAULT_GAP_MS: z.coerce.number().int().min(200).default(4000),
  /** only these fault kinds (comma-separated, e.g. `redis-restart,worker-sigstop`) to chase one failure; default all */
  CHAOS_FAULTS: z
    .string()
    .optional()
    .transform((v) => (v ? v.split(',').map((k) => k.trim()) : [...FAULT_KINDS]))
    .pipe(z.array(z.enum(FAULT_KINDS)).min(1)),
  /** seed of every random choice (visitors' gaps, fault picks): the same seed replays the same script */
  CHAOS_SEED: z.coerce
    .number()
    .int()
    .default(() => Date.now() % 1_000_000),
  /** keep the run's database afterwards (for digging into a violation) */
  CHAOS_KEEP_DB: z.enum(['0', '1']).default('0'),
  /** PostgreSQL server to create the run's database on */
  CHAOS_DATABASE_SERVER_URL: z
    .string()
    .url()
    .default(process.env.TEST_DATABASE_SERVER_URL || 'postgresql://postgres@127.0.0.1:5432'),
  CHAOS_REDIS_SERVER: z.string().default('/usr/bin/redis-server'),
});

export type ChaosSettings = z.infer<typeof chaosSettingsSchema> & {
  /** sending time actually used: given, or 30 ms per message (150 s for 5,000), at least 20 s */
  sendSeconds: number;
};

export function loadChaosSettings(env: NodeJS.ProcessEnv = process.env): ChaosSettings {
  const parsed = chaosSettingsSchema.parse(env);
  return { ...parsed, sendSeconds: parsed.CHAOS_SEND_SECONDS ?? Math.max(20, parsed.CHAOS_MESSAGES * 0.03) };
}

/** The pipeline's settings for every API and worker process of the run. */
export const PIPELINE = {
  LEASE_MS: 2000,
  DEBOUNCE_MS: 300,
  MAX_WAIT_MS: 1500,
  WORKER_POLL_MS: 250,
  MODEL_TIMEOUT_MS: 5000,
  MODEL_FIRST_TOKEN_TIMEOUT_MS: 5000,
  SSE_CATCHUP_MS: 2000,
  SSE_PING_MS: 3000,
} as const;

/** The whole run must end inside five minutes; past this the suite stops and fails. */
export const WATCHDOG_MS = 295_000;

/**
 * How the five minutes are shared out: sending starts no new message after
 * `WATCHDOG_MS - CHECK_MS - drain - SEND_TAIL_MS` from the start, so that the drain gets its whole
 * budget and the check its time, whatever the sending phase took. With the defaults that is
 * +180 s: setup (7–14 s on the recorded runs, ~28 s at load 10–15) and 150 s of sending leave a
 * slow machine little to spare, and it sends fewer messages (the report says how many).
 */
export const RUN_BOUND = {
  /** a send started just before the bound retries for 30 s, its last attempt up to 10 s, then the faults stop */
  SEND_TAIL_MS: 45_000,
  /** the checker and the report: under 1 s on every recorded run */
  CHECK_MS: 10_000,
} as const;
