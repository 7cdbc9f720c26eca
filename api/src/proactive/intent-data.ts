/** Largest intent data accepted, serialized as JSON (UTF-8 bytes). */
export const INTENT_DATA_MAX_BYTES = 2048;
/** Deepest nesting accepted: `{ a: { b: [ { c: 1 } ] } }` is depth 4. */
export const INTENT_DATA_MAX_DEPTH = 4;

/**
 * The page's intent data as it will be stored, or `bad_data`: plain JSON (what arrived over
 * HTTP already is), at most INTENT_DATA_MAX_BYTES serialized and INTENT_DATA_MAX_DEPTH deep,
 * and no NUL character anywhere (PostgreSQL's jsonb cannot hold one). No data is `null`.
 * @example intentData({ plan: 'pro' }) // { ok: true, data: { plan: 'pro' } }
 */
export function intentData(value: unknown): { ok: true; data: unknown } | { ok: false } {
  if (value === undefined || value === null) return { ok: true, data: null };
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    return { ok: false };
  }
  if (json === undefined || Buffer.byteLength(json, 'utf8') > INTENT_DATA_MAX_BYTES || json.includes('\\u0000')) return { ok: false };
  const data: unknown = JSON.parse(json);
  return depthOf(data) <= INTENT_DATA_MAX_DEPTH ? { ok: true, data } : { ok: false };
}

/** A scalar is depth 0; an object or array is one more than its deepest value. */
function depthOf(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  const children = Array.isArray(value) ? value : Object.values(value);
  return 1 + children.reduce<number>((max, child) => Math.max(max, depthOf(child)), 0);
}
