import { appRouter } from '../../api/src/trpc/app-router.ts';

/** One console call over plain HTTP, as a browser page would make it, with what came back. */
export interface RawAnswer {
  status: number;
  /** the tRPC envelope: `{ result: { data } }` or `{ error: { message, data: { code, reason, … } } }` */
  body: {
    result?: { data: unknown };
    error?: {
      message: string;
      data: { code: string; reason: string | null; retryAfterMs: number | null; fieldErrors: Record<string, string[]> | null };
    };
  };
  text: string;
  headers: Headers;
}

/**
 * Calls a procedure without the tRPC client, so tests see status codes and headers
 * (`Set-Cookie`, `Retry-After`). Subscriptions are read until their first error or `waitMs`.
 * @example await rawCall(heed.url, 'console.auth.signIn', 'mutation', { email, password }, { origin: heed.url })
 */
export async function rawCall(
  url: string,
  path: string,
  type: 'query' | 'mutation' | 'subscription',
  input: unknown,
  headers: Record<string, string> = {},
  waitMs = 3_000,
): Promise<RawAnswer> {
  const query = input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`;
  if (type === 'subscription') {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), waitMs);
    const res = await fetch(`${url}/trpc/${path}${query}`, {
      headers: { accept: 'text/event-stream', ...headers },
      signal: controller.signal,
    });
    let text = '';
    try {
      const decoder = new TextDecoder();
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        text += decoder.decode(chunk, { stream: true });
        if (/serialized-error|"error"/.test(text)) break;
      }
    } catch {
      // cut after waitMs
    } finally {
      clearTimeout(timer);
      controller.abort();
    }
    const data = /data: (\{.*\})/.exec(text.split('serialized-error')[1] ?? '')?.[1];
    const error = data ? (JSON.parse(data) as RawAnswer['body']['error']) : undefined;
    return { status: res.status, body: error ? { error } : {}, text, headers: res.headers };
  }
  const init: RequestInit =
    type === 'query'
      ? { headers }
      : {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: input === undefined ? undefined : JSON.stringify(input),
        };
  const res = await fetch(`${url}/trpc/${path}${type === 'query' ? query : ''}`, init);
  const text = await res.text();
  let body: RawAnswer['body'] = {};
  try {
    body = JSON.parse(text) as RawAnswer['body'];
  } catch {
    // not JSON: the status says enough
  }
  return { status: res.status, body, text, headers: res.headers };
}

/** `data.reason` of a refused call (`console_signed_out`, `owner_only`, …), or null. */
export const reasonOf = (answer: RawAnswer) => answer.body.error?.data.reason ?? null;

/** Every console procedure, from the router itself: one added later is covered without touching the tests. */
export function consoleProcedures(): { path: string; type: 'query' | 'mutation' | 'subscription' }[] {
  const all = appRouter._def.procedures as unknown as Record<string, { _def: { type: 'query' | 'mutation' | 'subscription' } }>;
  return Object.entries(all)
    .filter(([path]) => path.startsWith('console.'))
    .map(([path, p]) => ({ path, type: p._def.type }));
}
