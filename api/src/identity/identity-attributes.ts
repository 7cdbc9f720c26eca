/** Most attributes one identity carries; later ones are dropped. */
export const ATTRIBUTES_MAX = 20;
/** Longest attribute name, in characters. */
export const ATTRIBUTE_KEY_MAX = 40;
/** Longest string value, in characters. */
export const ATTRIBUTE_VALUE_MAX = 200;

/** What the console shows beside the visitor: `{ plan: 'pro', seats: 12, trial: false }`. */
export type IdentityAttributes = Record<string, string | number | boolean>;

const CONTROL = /[\u0000-\u001F\u007F]/;

/**
 * The `attributes` claim of a host-signed identity, bounded: at most ATTRIBUTES_MAX names of
 * 1–ATTRIBUTE_KEY_MAX characters without control characters, each a string (at most
 * ATTRIBUTE_VALUE_MAX characters, no NUL: PostgreSQL cannot hold it), a finite number or a
 * boolean. Anything else is dropped one attribute at a time, never failing the session: the
 * host signed it, and a stray value must not lock its user out. Null when the claim is absent
 * or not an object (stored attributes then stay as they were).
 * @example readAttributes({ plan: 'pro', nested: { a: 1 } }) // { plan: 'pro' }
 */
export function readAttributes(claim: unknown): IdentityAttributes | null {
  if (!claim || typeof claim !== 'object' || Array.isArray(claim)) return null;
  const kept: IdentityAttributes = {};
  let count = 0;
  for (const [key, value] of Object.entries(claim)) {
    if (count >= ATTRIBUTES_MAX) break;
    if (key.length === 0 || key.length > ATTRIBUTE_KEY_MAX || CONTROL.test(key)) continue;
    if (!keepsValue(value)) continue;
    // defineProperty: a `__proto__` name stays an ordinary attribute, never the object's prototype
    Object.defineProperty(kept, key, { value, enumerable: true, writable: true, configurable: true });
    count++;
  }
  return kept;
}

function keepsValue(value: unknown): value is string | number | boolean {
  if (typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  return typeof value === 'string' && value.length <= ATTRIBUTE_VALUE_MAX && !value.includes('\u0000');
}
