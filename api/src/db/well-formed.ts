/** A UTF-16 surrogate without its other half. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const EVERY_LONE_SURROGATE = new RegExp(LONE_SURROGATE.source, 'g');

/** The text with every lone surrogate replaced by U+FFFD (a fresh string only when one was there). */
export function wellFormedText(s: string): string {
  return LONE_SURROGATE.test(s) ? s.replace(EVERY_LONE_SURROGATE, '\uFFFD') : s;
}

/**
 * Makes a parsed JSON value's strings (and keys) well-formed UTF-16, in place, and answers it:
 * every lone surrogate becomes U+FFFD.
 *
 * Why: JSON can carry `"\ud800"`, a code unit that no UTF-8 text can hold. A text column gets
 * U+FFFD for it anyway (the driver encodes it so), but inside a json payload, which every event
 * is, PostgreSQL refuses the escape and the whole transaction fails: for a send group, every
 * visitor's send in it (the API fuzzer's find, a 500). U+FFFD is what TextEncoder, Buffer and the
 * driver write for it, so the text stored and the text in its events agree.
 *
 * Walks plain objects and arrays only (what JSON makes), without recursion, so input nested
 * thousands deep cannot overflow the stack, and each one once.
 * @example wellFormed({ content: 'Hel\ud800lo' }) // { content: 'Hel\uFFFDlo' }
 */
export function wellFormed<T>(value: T): T {
  if (typeof value === 'string') return wellFormedText(value) as T;
  const seen = new Set<object>();
  const stack: object[] = [];
  const visit = (v: unknown) => {
    if (isPlainContainer(v) && !seen.has(v)) {
      seen.add(v);
      stack.push(v);
    }
  };
  visit(value);
  while (stack.length > 0) {
    const node = stack.pop() as Record<string, unknown>;
    for (const key of Object.keys(node)) {
      const child = node[key];
      const repairedKey = wellFormedText(key);
      const repaired = typeof child === 'string' ? wellFormedText(child) : child;
      if (repairedKey !== key) delete node[key];
      // defineProperty, not assignment: an own `__proto__` key (JSON.parse makes one) stays a plain key
      if (repairedKey !== key || repaired !== child)
        Object.defineProperty(node, repairedKey, { value: repaired, writable: true, enumerable: true, configurable: true });
      visit(child);
    }
  }
  return value;
}

function isPlainContainer(v: unknown): v is object {
  if (v === null || typeof v !== 'object') return false;
  if (Array.isArray(v)) return true;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}
