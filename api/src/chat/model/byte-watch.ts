import { randomUUID } from 'node:crypto';

/** The request header that names a watch; removed before the request leaves the process. */
const WATCH_HEADER = 'x-heed-byte-watch';
const watchers = new Map<string, () => void>();

/**
 * Calls `onBytes` whenever bytes of the response arrive, SSE comments included: the SDK's
 * stream reader drops comment lines (`: keep-alive`, OpenRouter's `: OPENROUTER PROCESSING`), so
 * a model that is alive but thinking would look silent. Pass `headers` with the request (the
 * client must be built with {@link watchingFetch}) and `stop()` once it ended.
 * @example const watch = watchBytes(() => lastByteAt = Date.now()); openai.chat.completions.create(body, { headers: watch.headers })
 */
export function watchBytes(onBytes: () => void): { headers: Record<string, string>; stop: () => void } {
  const id = randomUUID();
  watchers.set(id, onBytes);
  return { headers: { [WATCH_HEADER]: id }, stop: () => void watchers.delete(id) };
}

/**
 * `fetch` for the OpenAI client: a request carrying a watch has its response body passed
 * through a counter of arrivals; every other request is plain `fetch`.
 */
export const watchingFetch: typeof fetch = async (input, init) => {
  const headers = new Headers(init?.headers);
  const id = headers.get(WATCH_HEADER);
  if (id === null) return fetch(input, init);
  headers.delete(WATCH_HEADER);
  const res = await fetch(input, { ...init, headers });
  const onBytes = watchers.get(id);
  if (!onBytes || !res.body) return res;
  const body = res.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, out) {
        watchers.get(id)?.();
        out.enqueue(chunk);
      },
    }),
  );
  return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
};
