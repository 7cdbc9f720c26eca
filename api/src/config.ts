import { z } from 'zod';

const DEV_SECRET = 'heed-dev-secret-change-me-in-production';

const int = (fallback: number) => z.coerce.number().int().nonnegative().default(fallback);

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
    /** site key seeded at start-up so the demo works on first run; empty to skip */
    DEMO_SITE_KEY: z.string().default('demo'),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV === 'production' && env.HEED_SECRET === DEV_SECRET) {
      ctx.addIssue({ code: 'custom', path: ['HEED_SECRET'], message: 'set HEED_SECRET in production' });
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
