import type { Logger } from './logger.ts';

/** The older logging call: a line, and optionally an error (described, never raw). */
export type LineLog = (line: string, extra?: unknown) => void;

/**
 * `services.log` kept for callers written before structured logs: a line alone is `info`, a
 * line with an error is `error` with the error under `err` (serialized by describeError).
 * New code takes a scoped child of `services.logger` instead.
 * @example const log = lineLog(logger); log('title pass failed', err)
 */
export function lineLog(logger: Logger): LineLog {
  return (line, extra) => (extra === undefined ? logger.info(line) : logger.error({ err: extra }, line));
}
