import { z } from 'zod';

const DEV_SECRET = 'heed-dev-secret-change-me-in-production';

const int = (fallback: number) => z.coerce.number().int().nonnegative().default(fallback);
/** An optional setting where an empty variable (`CRON_SECRET=`) means unset, not "" or 0. */
const optional = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

/** Every setting Heed reads from the environment, validated once at start-up. */
export const configSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: int(3000),
    HOST: z.string().default('127.0.0.1'),
    DATABASE_URL: z.string().url().default('postgresql://postgres@127.0.0.1:5432/heed'),
    REDIS_URL: z.string().url().default('redis://127.0.0.1:6379'),
    /** prefix for every Redis key and channel, so several deployments (or tests) can share one Redis */
    REDIS_PREFIX: z.string().default('heed:'),
    /** signs visitor tokens; must be set in production */
    HEED_SECRET: z.string().min(16).default(DEV_SECRET),
    OPENAI_API_KEY: z.string().optional(),
    OPENAI_BASE_URL: z.string().url().optional(),
    OPENAI_MODEL: z.string().default('gpt-4o-mini'),
    /** how long a batch waits for more sends; each send slides it */
    DEBOUNCE_MS: int(1500),
    /** cap on the sliding debounce, counted from the oldest pending send */
    MAX_WAIT_MS: int(6000),
    /** lock and run lease; renewed every third of it while a run lives */
    LEASE_MS: int(15000),
    /** runs one worker process streams at once */
    WORKER_CONCURRENCY: int(8),
    /** fallback poll when no wake-up arrives over Redis */
    WORKER_POLL_MS: int(1000),
    MODEL_MAX_ATTEMPTS: int(3),
    /** the model must start, and keep, streaming within this (an idle timeout) */
    MODEL_TIMEOUT_MS: int(30000),
    MODEL_MAX_TOKENS: int(1024),
    /** token budget of the history part of the context */
    CONTEXT_TOKEN_BUDGET: int(6000),
    SSE_PING_MS: int(10000),
    /** a quiet event stream re-reads the log this often (covers wake-ups lost while Redis was away) */
    SSE_CATCHUP_MS: int(5000),
    /** site key seeded at start-up so the demo works on first run; empty to skip (and no demo shop) */
    DEMO_SITE_KEY: z.string().default('demo'),
    /** port of the demo shop, a customer's site on its own origin; default PORT + 1 */
    DEMO_PORT: optional(z.coerce.number().int().min(1).max(65535)),
    /** the API's base URL as browsers reach it (behind a proxy or a path prefix); the demo shop embeds the widget from it. Default: http://<the host the browser used>:PORT/ */
    PUBLIC_URL: optional(z.string().url().transform((u) => (u.endsWith('/') ? u : `${u}/`))),
    /** model for titles; empty means OPENAI_MODEL */
    TITLE_MODEL: optional(z.string()),
    TITLE_MAX_TOKENS: int(60),
    /** one title call must answer within this */
    TITLE_TIMEOUT_MS: int(20000),
    /** a title call whose worst-case (before) or actual (after) cost is above this fails */
    TITLE_COST_CEILING_USD: z.coerce.number().nonnegative().default(0.05),
    /** override the price table for TITLE_MODEL, USD per million tokens */
    TITLE_PRICE_INPUT_USD: optional(z.coerce.number().nonnegative()),
    TITLE_PRICE_OUTPUT_USD: optional(z.coerce.number().nonnegative()),
    /** interval of the in-process title pass; 0 turns the timer off (the cron route still works) */
    TITLE_PASS_MS: int(2000),
    /** title calls one process makes at once */
    TITLE_CONCURRENCY: z.coerce.number().int().positive().default(4),
    /** failed title attempts before a conversation keeps its fallback for good */
    TITLE_MAX_ATTEMPTS: z.coerce.number().int().positive().default(3),
    /** how long a claimed title request stays claimed; longer than the timeout, so a live call is never taken over */
    TITLE_LEASE_MS: int(60000),
    /** bearer secret of POST /api/cron/titles; unset means the route refuses everyone */
    CRON_SECRET: optional(z.string().min(16, 'use at least 16 characters')),
    /** bearer token of the operator API (`admin.*`); unset means it refuses everyone */
    ADMIN_TOKEN: optional(z.string().min(16, 'use at least 16 characters')),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV === 'production' && env.HEED_SECRET === DEV_SECRET) {
      ctx.addIssue({ code: 'custom', path: ['HEED_SECRET'], message: 'set HEED_SECRET in production' });
    }
    if (env.TITLE_LEASE_MS <= env.TITLE_TIMEOUT_MS) {
      ctx.addIssue({ code: 'custom', path: ['TITLE_LEASE_MS'], message: 'must be longer than TITLE_TIMEOUT_MS' });
    }
  });

export type Config = z.infer<typeof configSchema>;

/** Parses the environment; exits with a readable list of problems when it is invalid. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = configSchema.safeParse(env);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
  throw new Error(`Invalid configuration:\n${problems}`);
}
