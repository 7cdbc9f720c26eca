import { z } from 'zod';
import { type Random, sleep } from '../random.ts';

/** What Heed's error formatter puts in `error.data` (see api/src/trpc/trpc.ts). */
const errorShape = z.object({
  error: z.object({
    message: z.string().optional(),
    data: z
      .object({
        code: z.string().optional(),
        httpStatus: z.number().optional(),
        reason: z.string().nullish(),
        retryAfterMs: z.number().nullish(),
      })
      .partial()
      .optional(),
  }),
});
const resultShape = z.object({ result: z.object({ data: z.unknown() }) });

/** The server refused the call for good (a bad input, an unknown conversation): not worth repeating. */
export class Refused extends Error {}

/** How often and why calls were repeated, over the whole run. */
export const wireStats = { attempts: 0, networkErrors: 0, serverErrors: 0, throttled: 0, timeouts: 0 };

export interface CallOptions {
  /** the API processes' base URLs: a call starts at a random one and each retry moves to the next */
  apis: readonly string[];
  token?: string | null;
  random: Random;
  /** one attempt's bound: a call stuck behind a Redis restart is abandoned and sent again */
  attemptTimeoutMs?: number;
  /** give up after this long in all (the run's drain must end) */
  deadline?: number;
}

/**
 * One tRPC query or mutation over HTTP, the way the widget speaks it (api/src/trpc wire:
 * `GET /trpc/<path>?input=` or `POST /trpc/<path>` with a JSON body), repeated with the SAME
 * input until it is answered: network errors (a killed API process), timeouts, 5xx and 429
 * (after its `retryAfterMs`) all try again, so an idempotent call (a send carries its
 * `clientMessageId`) is delivered at least once and stored at most once.
 */
export async function call<T>(
  path: string,
  kind: 'query' | 'mutation',
  input: unknown,
  schema: z.ZodType<T>,
  opts: CallOptions,
): Promise<T> {
  const headers: Record<string, string> = opts.token ? { authorization: `Bearer ${opts.token}` } : {};
  const first = opts.random.int(0, opts.apis.length - 1);
  for (let attempt = 0; ; attempt++) {
    if (opts.deadline !== undefined && Date.now() > opts.deadline) throw new Error(`${path}: gave up after ${attempt} attempts`);
    // the first attempt goes anywhere; each retry to the next process, as a load balancer fails over
    const base = opts.apis[(first + attempt) % opts.apis.length]!;
    wireStats.attempts++;
    let status = 0;
    let body: unknown;
    try {
      const query = kind === 'query' && input !== undefined ? `?input=${encodeURIComponent(JSON.stringify(input))}` : '';
      const res = await fetch(`${base}/trpc/${path}${query}`, {
        method: kind === 'query' ? 'GET' : 'POST',
        headers: kind === 'query' ? headers : { ...headers, 'content-type': 'application/json' },
        body: kind === 'mutation' && input !== undefined ? JSON.stringify(input) : undefined,
        signal: AbortSignal.timeout(opts.attemptTimeoutMs ?? 10_000),
      });
      status = res.status;
      body = await res.json();
    } catch (err) {
      if ((err as Error).name === 'TimeoutError') wireStats.timeouts++;
      else wireStats.networkErrors++;
      await sleep(backoff(attempt, opts.random));
      continue;
    }
    const ok = resultShape.safeParse(body);
    if (ok.success) return schema.parse(ok.data.result.data);
    const failure = errorShape.safeParse(body);
    const data = failure.success ? (failure.data.error.data ?? {}) : {};
    if (status === 429 || data.code === 'TOO_MANY_REQUESTS') {
      wireStats.throttled++;
      await sleep(Math.max(data.retryAfterMs ?? 0, backoff(attempt, opts.random)));
      continue;
    }
    if (status >= 500 || status === 0) {
      wireStats.serverErrors++;
      await sleep(backoff(attempt, opts.random));
      continue;
    }
    throw new Refused(`${path}: ${status} ${failure.success ? failure.data.error.message : JSON.stringify(body).slice(0, 200)}`);
  }
}

/** 100 ms doubling to 2 s, with jitter so retried senders do not move in step. */
function backoff(attempt: number, random: Random): number {
  return Math.min(2000, 100 * 2 ** attempt) * (0.5 + random.next());
}
