import { t } from '../i18n/i18n.ts';

/** Wait after a refusal that names no time (`pending_batch_full`), doubled on each repeat… */
const FALLBACK_WAIT_MS = 5_000;
/** …up to this. */
const MAX_FALLBACK_WAIT_MS = 60_000;

/** How long the send queue waits after the server refused a send with 429. */
export interface SendWait {
  ms: number;
  /** the server named no time: a reply in the conversation (its batch emptied) ends the wait early */
  untilReply: boolean;
}

/**
 * A send the server refused with `TOO_MANY_REQUESTS` (a rate limit, or a conversation whose
 * pending batch is full): how long to wait before sending it again, from the error's
 * `retryAfterMs` when the server gave one. `null` for any other error. `repeats` counts
 * refusals in a row without a server time, for the backoff.
 * @example const wait = sendWait(err, 0); if (wait) setTimeout(resend, wait.ms)
 */
export function sendWait(err: unknown, repeats: number): SendWait | null {
  const data = (err as { data?: { code?: unknown; retryAfterMs?: unknown } } | null)?.data;
  if (data?.code !== 'TOO_MANY_REQUESTS') return null;
  if (typeof data.retryAfterMs === 'number' && data.retryAfterMs > 0) return { ms: data.retryAfterMs, untilReply: false };
  return { ms: Math.min(MAX_FALLBACK_WAIT_MS, FALLBACK_WAIT_MS * 2 ** repeats), untilReply: true };
}

/**
 * What a waiting send shows beside its bubble, in the widget's language: whole seconds,
 * rounded up, never "0 s"; whole minutes from 60 s.
 * @example sendingIn(Date.now() + 11_200) // 'Sending in 12 s'
 */
export function sendingIn(retryAt: number, now = Date.now()): string {
  const s = Math.max(1, Math.ceil((retryAt - now) / 1000));
  return s >= 60 ? t.sendingInMin(Math.ceil(s / 60)) : t.sendingInS(s);
}
