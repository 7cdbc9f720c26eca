import { type LineLog, lineLog } from './line-log.ts';
import type { LogScope, Logger } from './logger.ts';

/**
 * The same dependencies with their logger narrowed to `scope`: `logger` becomes a child, and
 * the older `log(line, err?)` writes through that child, so a line from either carries the
 * scope's fields (a run's `runId`, `conversationId` and its worker's `workerId`).
 * @example const run = scoped(deps, { runId: batch.runId, conversationId: batch.conversationId })
 */
export function scoped<T extends { logger: Logger; log?: LineLog }>(deps: T, scope: LogScope): T {
  const logger = deps.logger.child(scope);
  return { ...deps, logger, log: lineLog(logger) };
}
