import { z } from 'zod';
import { compatSetting } from './chat/model/compat-flags.ts';
import { limitOverrides } from './limits/site-limits.ts';
import { LOG_LEVELS } from './logging/logger.ts';

const DEV_SECRET = 'heed-dev-secret-change-me-in-production';

const int = (fallback: number) => z.coerce.number().int().nonnegative().default(fallback);
/** RATE_LIMITS must be JSON the limits schema accepts: a typo fails at start-up, not silently. */
function checkLimitOverrides(text: string, ctx: z.RefinementCtx): void {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return void ctx.addIssue({ code: 'custom', message: 'must be JSON, e.g. {"sendBurst":{"points":8,"seconds":20}}' });
  }
  const parsed = limitOverrides.safeParse(value);
  for (const issue of parsed.error?.issues ?? [])
    ctx.addIssue({ code: 'custom', message: `${issue.path.join('.') || 'value'}: ${issue.message}` });
}

/** An optional setting where an empty variable (`CRON_SECRET=`) means unset, not "" or 0. */
const optional = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

/** Every setting Heed reads from the environment, validated once at start-up. */
export const configSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: int(3000),
    HOST: z.string().default('127.0.0.1'),
    /** a PostgreSQL server; unset (''): an embedded PostgreSQL with its data in HEED_DATA_DIR */
    DATABASE_URL: z.union([z.literal(''), z.string().url()]).default(''),
    /** a Redis server; unset (''): locks and events in process, and Heed runs as one process */
    REDIS_URL: z.union([z.literal(''), z.string().url()]).default(''),
    /** the embedded database's folder (used without DATABASE_URL); it survives restarts */
    HEED_DATA_DIR: z.string().min(1).default('.heed/data'),
    /** prefix for every Redis key and channel, so several deployments (or tests) can share one Redis */
    REDIS_PREFIX: z.string().default('heed:'),
    /** signs visitor tokens and stream tickets; must be set in production */
    HEED_SECRET: z.string().min(16).default(DEV_SECRET),
    /** the secret before a rotation: tokens it signed stay valid until they expire */
    HEED_SECRET_PREVIOUS: optional(z.string().min(16)),
    /** a visitor token's life; every page load renews it */
    VISITOR_TOKEN_TTL_DAYS: z.coerce.number().int().min(1).max(400).default(30),
    /** an event-stream ticket's life (the widget gets one per connection) */
    STREAM_TICKET_TTL_MS: z.coerce.number().int().min(1000).default(120_000),
    /** production only: answer with the local demo model when no model is configured (never by default) */
    HEED_DEMO_MODEL: optional(z.enum(['0', '1'])),
    /** '0': `npm start` serves the API alone, without its in-process reply worker and title timer (run `npm run worker` processes beside it) */
    HEED_WORKER: optional(z.enum(['0', '1'])),
    /** production only: apply pending migrations at start-up instead of refusing to start (development and test always do) */
    HEED_AUTO_MIGRATE: optional(z.enum(['0', '1'])),
    OPENAI_API_KEY: z.string().optional(),
    OPENAI_BASE_URL: z.string().url().optional(),
    OPENAI_MODEL: z.string().default('gpt-4o-mini'),
    /** what the model server does not take, declared up front (comma-separated; see chat/model/compat-flags.ts); Heed learns the rest from refusals */
    OPENAI_COMPAT: optional(compatSetting),
    /** how long a batch waits after its newest send when the visitor is not typing (a correction sent right after still folds in) */
    SEND_SETTLE_MS: int(250),
    /** how long a batch waits after the visitor's last keystroke past their newest send (`message.typing`) */
    DEBOUNCE_MS: int(1500),
    /** cap on the whole wait (settle and typing), counted from the oldest pending send */
    MAX_WAIT_MS: int(6000),
    /** lock and run lease; renewed every third of it while a run lives */
    LEASE_MS: int(15000),
    /** longest a run may hold its lease; past it the run is stopped and its batch taken over (a hung query, a stream that never ends) */
    RUN_MAX_MS: int(600_000),
    /** runs one worker process streams at once */
    WORKER_CONCURRENCY: int(8),
    /** CPU priority (nice, 0–19) a `npm run worker` process lowers itself to: an API process beside it is served first (chat/schedule/worker-priority.ts) */
    WORKER_NICE: z.coerce.number().int().min(0).max(19).default(10),
    /** fallback poll when no wake-up arrives over Redis */
    WORKER_POLL_MS: int(1000),
    MODEL_MAX_ATTEMPTS: int(3),
    /** once a reply streams, the longest silence between tokens (keep-alive comments count as life) */
    MODEL_TIMEOUT_MS: int(30000),
    /** the longest wait for a reply's first token (reasoning included): reasoning models think for a minute first */
    MODEL_FIRST_TOKEN_TIMEOUT_MS: int(120_000),
    MODEL_MAX_TOKENS: int(1024),
    /** token budget of the history part of the context */
    CONTEXT_TOKEN_BUDGET: int(6000),
    SSE_PING_MS: int(10000),
    /**
     * an event stream whose client takes nothing for this long is closed (0: never): the client
     * reconnects from its last event id and misses nothing, and the API stops holding what
     * queued for it; a client that never reads again would otherwise keep both for as long as
     * its TCP connection lives
     */
    SSE_STALL_MS: int(60000),
    /** a quiet event stream re-reads the log this often (covers wake-ups lost while Redis was away) */
    SSE_CATCHUP_MS: int(5000),
    /** a request's headers and body must arrive within this, or it is answered 408 and cut (slow-body clients); responses, SSE included, are not limited */
    HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().positive().default(30_000),
    /** unanswered messages one conversation may hold; the next send is refused (429 `pending_batch_full`) */
    PENDING_MAX_MESSAGES: z.coerce.number().int().positive().default(20),
    /** characters those unanswered messages may hold together: bounds the final turn of the next prompt */
    PENDING_MAX_CHARS: z.coerce.number().int().positive().default(16_000),
    /** conversations one visitor may open; the next create is refused (429 `conversation_limit`) */
    VISITOR_MAX_CONVERSATIONS: z.coerce.number().int().positive().default(200),
    /** site key seeded at start-up so the demo works on first run; empty to skip (and no demo shop). Default `demo`, none in production */
    DEMO_SITE_KEY: z.string().max(64).optional(),
    /** port of the demo shop, a customer's site on its own origin; default PORT + 1 */
    DEMO_PORT: optional(z.coerce.number().int().min(1).max(65535)),
    /** the API's base URL as browsers reach it (behind a proxy or a path prefix); the demo shop embeds the widget from it. Default: http://<the host the browser used>:PORT/ */
    PUBLIC_URL: optional(
      z
        .string()
        .url()
        .transform((u) => (u.endsWith('/') ? u : `${u}/`)),
    ),
    /** an SMTP server to send email through (`smtp://user:pass@host:587`, `smtps://…:465`); unset: Heed sends no email and the console says so */
    SMTP_URL: optional(
      z
        .string()
        .url()
        .refine((u) => /^smtps?:$/.test(new URL(u).protocol), 'must start with smtp:// or smtps://'),
    ),
    /** the From of Heed's emails */
    EMAIL_FROM: z.string().max(320).default('Heed <heed@localhost>'),
    /** how long an operator alert waits before it is emailed: a conversation seen in the console meanwhile sends nothing (at most 15 minutes) */
    EMAIL_ALERT_DELAY_MS: z.coerce.number().int().min(0).max(900_000).default(180_000),
    /** how often a worker process looks for alerts to queue and emails due to send (with SMTP_URL) */
    EMAIL_PASS_MS: z.coerce.number().int().min(50).default(2000),
    /** a claimed email is its sender's this long (a crashed sender's is taken again after it); a send is given up after half of it */
    EMAIL_LEASE_MS: z.coerce.number().int().min(1000).default(60_000),
    /** wait before the first retry of an email the SMTP server did not take; each next one waits twice as long (5 attempts, then failed) */
    EMAIL_RETRY_MS: z.coerce.number().int().min(0).default(30_000),
    /**
     * an S3-compatible bucket for attachments, in one setting: `https://KEY_ID:SECRET@host[:port]/bucket?region=eu-west-1`
     * (path-style addressing; percent-encode the secret). Or the S3_* settings below. Unset: files go to
     * HEED_DATA_DIR in the embedded mode, else to PostgreSQL
     */
    S3_URL: optional(z.string().url()),
    /** an S3-compatible endpoint (`https://s3.eu-west-1.amazonaws.com`, a MinIO or R2 address); with S3_BUCKET and the keys */
    S3_ENDPOINT: optional(z.string().url()),
    S3_BUCKET: optional(z.string().min(3).max(63)),
    S3_REGION: z.string().max(64).default('us-east-1'),
    S3_ACCESS_KEY_ID: optional(z.string().max(256)),
    S3_SECRET_ACCESS_KEY: optional(z.string().max(256)),
    /** `bucket.host` addressing instead of `host/bucket` (AWS prefers it; MinIO and most others need path-style, the default) */
    S3_VIRTUAL_HOSTED: z
      .enum(['true', 'false', '1', '0', ''])
      .default('false')
      .transform((v) => v === 'true' || v === '1'),
    /** the deployment's ceiling on one attached file (a site's own limit is at most this); also the upload's body limit */
    ATTACHMENT_MAX_BYTES: z.coerce
      .number()
      .int()
      .min(1024)
      .max(100 * 1024 * 1024)
      .default(25 * 1024 * 1024),
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
    /** site knowledge may be crawled from private, loopback and link-local addresses (intranet docs); off, such addresses are refused */
    KNOWLEDGE_ALLOW_PRIVATE: z.enum(['0', '1']).default('0'),
    /** pages one knowledge source keeps */
    KNOWLEDGE_MAX_PAGES: z.coerce.number().int().positive().default(500),
    /** a knowledge page larger than this is refused (its error shows in the source's status) */
    KNOWLEDGE_MAX_PAGE_BYTES: z.coerce.number().int().positive().default(2_000_000),
    /** one knowledge page's fetch, redirects included */
    KNOWLEDGE_PAGE_TIMEOUT_MS: int(15_000),
    /** one source's whole sync; pages not reached by then wait for the next */
    KNOWLEDGE_SYNC_MS: int(600_000),
    /** an uploaded knowledge file (Markdown, text, HTML or PDF) larger than this is refused */
    KNOWLEDGE_MAX_FILE_BYTES: z.coerce.number().int().positive().max(20_000_000).default(5_000_000),
    /** memory one process gives the site vectors it keeps for hybrid retrieval; a site whose vectors do not fit is searched by text only */
    KNOWLEDGE_VECTOR_CACHE_MB: z.coerce.number().int().nonnegative().default(256),
    /** an OpenAI-compatible embeddings model (`/v1/embeddings`): with it retrieval ranks by meaning as well as words; empty: text only */
    EMBEDDINGS_MODEL: optional(z.string().max(200)),
    /** the embeddings server; default OPENAI_BASE_URL */
    EMBEDDINGS_BASE_URL: optional(z.string().url()),
    /** the embeddings server's key; default OPENAI_API_KEY */
    EMBEDDINGS_API_KEY: optional(z.string()),
    /** ask the embeddings model for vectors this long (models that take `dimensions`); empty: the model's own */
    EMBEDDINGS_DIMENSIONS: optional(z.coerce.number().int().min(8).max(4096)),
    /** one embeddings request; a question whose embedding is late is searched by text only */
    EMBEDDINGS_TIMEOUT_MS: int(3000),
    /** a match by meaning below this cosine similarity is no match (so "nothing relevant" can still be found) */
    EMBEDDINGS_MIN_SIMILARITY: z.coerce.number().min(-1).max(1).default(0.3),
    /** reverse proxies in front of Heed that append to X-Forwarded-For; 0 trusts no header (the socket address is the client) */
    TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
    /** deployment-wide overrides of the default rate limits: JSON, any subset of api/src/limits/site-limits.ts (kept as text; parsed by the limits) */
    RATE_LIMITS: optional(z.string().superRefine(checkLimitOverrides)),
    /** model spend per site and UTC day (replies and titles) above which replies stop, for sites without their own cap */
    SPEND_CAP_USD_PER_DAY: z.coerce.number().nonnegative().default(25),
    /** override the price table for OPENAI_MODEL, USD per million tokens */
    MODEL_PRICE_INPUT_USD: optional(z.coerce.number().nonnegative()),
    MODEL_PRICE_OUTPUT_USD: optional(z.coerce.number().nonnegative()),
    /** bearer secret of POST /api/cron/titles; unset means the route refuses everyone */
    CRON_SECRET: optional(z.string().min(16, 'use at least 16 characters')),
    /** bearer token of the operator API (`admin.*`); unset means it refuses everyone */
    ADMIN_TOKEN: optional(z.string().min(16, 'use at least 16 characters')),
    /** bearer token of GET /metrics (Prometheus); unset means it refuses everyone */
    METRICS_TOKEN: optional(z.string().min(16, 'use at least 16 characters')),
    /** with HEED_ADMIN_PASSWORD: this console owner is created (or its password set) at start-up */
    HEED_ADMIN_EMAIL: optional(z.string().regex(/^[^\s@]+@[^\s@.][^\s@]*$/, 'must be an email address')),
    /** the password of HEED_ADMIN_EMAIL's owner (at least 12 characters) */
    HEED_ADMIN_PASSWORD: optional(z.string().min(12, 'use at least 12 characters')),
    /** the name of the owner HEED_ADMIN_EMAIL creates (visitors see it beside their replies); they can change it in the console. Default: the email's local part */
    HEED_ADMIN_NAME: optional(z.string().trim().min(1).max(120)),
    /** least severe level written: fatal, error, warn, info (default), debug, trace or silent */
    LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
    /** outside production: '1' prints readable lines even without a terminal, '0' prints JSON on one */
    LOG_PRETTY: optional(z.enum(['0', '1'])),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV === 'production') {
      // Fail closed: each refusal is one line of the start-up error.
      if (env.HEED_SECRET === DEV_SECRET || weakSecret(env.HEED_SECRET)) {
        ctx.addIssue({
          code: 'custom',
          path: ['HEED_SECRET'],
          message: 'set a strong HEED_SECRET in production (32+ random characters, e.g. `openssl rand -hex 32`)',
        });
      }
      for (const name of ['ADMIN_TOKEN', 'CRON_SECRET', 'METRICS_TOKEN'] as const) {
        const value = env[name];
        if (value !== undefined && weakSecret(value)) {
          ctx.addIssue({
            code: 'custom',
            path: [name],
            message: `too weak for production: use 32+ random characters (e.g. \`openssl rand -hex 32\`), or leave it unset to turn the route off`,
          });
        }
      }
    }
    if ((env.HEED_ADMIN_EMAIL === undefined) !== (env.HEED_ADMIN_PASSWORD === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['HEED_ADMIN_PASSWORD'],
        message: 'set both HEED_ADMIN_EMAIL and HEED_ADMIN_PASSWORD, or neither',
      });
    }
    if (env.HEED_WORKER === '0' && (env.REDIS_URL === '' || env.DATABASE_URL === '')) {
      // the embedded database and in-process Redis are this process's alone: no other worker could answer
      ctx.addIssue({
        code: 'custom',
        path: ['HEED_WORKER'],
        message: 'HEED_WORKER=0 needs DATABASE_URL and REDIS_URL, shared with the `npm run worker` processes that answer instead',
      });
    }
    if (env.TITLE_LEASE_MS <= env.TITLE_TIMEOUT_MS) {
      ctx.addIssue({ code: 'custom', path: ['TITLE_LEASE_MS'], message: 'must be longer than TITLE_TIMEOUT_MS' });
    }
  });

/**
 * A secret anyone could guess: short, few distinct characters, or a placeholder word.
 * 32 characters of `openssl rand -hex 32` pass; `changeme-changeme-changeme-123456` does not.
 */
export function weakSecret(value: string): boolean {
  const distinct = new Set(value).size;
  return value.length < 32 || distinct < 10 || /change.?me|secret|password|example|admin|token|default|test/i.test(value);
}

export type Config = z.infer<typeof configSchema> & {
  /** the demo site key after the production default (none) is applied */
  DEMO_SITE_KEY: string;
};

/**
 * Defaults that depend on NODE_ENV: production seeds no public demo site unless
 * DEMO_SITE_KEY names one explicitly.
 */
export function withDefaults(env: z.infer<typeof configSchema>): Config {
  return { ...env, DEMO_SITE_KEY: env.DEMO_SITE_KEY ?? (env.NODE_ENV === 'production' ? '' : 'demo') };
}

/** Parses the environment; exits with a readable list of problems when it is invalid. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = configSchema.safeParse(env);
  if (parsed.success) return withDefaults(parsed.data);
  const problems = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
  throw new Error(`Invalid configuration:\n${problems}`);
}
