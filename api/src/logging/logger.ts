import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import { describeError } from './describe-error.ts';
import { REDACT_PATHS } from './redaction.ts';

export type { Logger } from 'pino';

/** The pino levels LOG_LEVEL accepts, most severe first; `silent` logs nothing. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * What a child logger may be scoped by. One spelling for each, so every line of a run can be
 * found by `runId` whichever module wrote it.
 */
export interface LogScope {
  /** the HTTP request (echoed to the client in `X-Request-Id`) */
  requestId?: string;
  /** the reply worker (`ReplyWorker.id`: host, pid and a random suffix) */
  workerId?: string;
  /** one claimed batch's run */
  runId?: string;
  conversationId?: string;
}

/** Keys whose value is an error: each passes through describeError, never printed raw. */
const ERROR_KEYS = ['err', 'error', 'cause', 'reason'] as const;

/**
 * pino's options for Heed: level labels and ISO times (readable without a tool), the
 * redaction list, and errors described by kind, code and status only (describe-error.ts).
 */
export function loggerOptions(level: LogLevel): LoggerOptions {
  const describe = (value: unknown) => describeError(value);
  return {
    level,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }), log: describeErrorFields },
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    serializers: { ...Object.fromEntries(ERROR_KEYS.map((key) => [key, describe])), req: requestFields },
    hooks: { logMethod: withSafeMessage },
  };
}

/**
 * An error under any other top-level key (`{ detail: err }`) is described too: pino would
 * print its enumerable fields, and a Prisma error's `meta` can carry the database's message.
 */
function describeErrorFields(fields: Record<string, unknown>): Record<string, unknown> {
  if (!Object.values(fields).some((value) => value instanceof Error)) return fields;
  return Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, value instanceof Error ? describeError(value) : value]));
}

/**
 * An HTTP request as a line may show it (an HTTP framework's request lines use `req`): method
 * and path only. The query string is dropped: an event stream's URL carries its ticket there.
 */
function requestFields(req: { method?: string; url?: string }): { method?: string; path?: string } {
  return { method: req.method, path: req.url?.split('?', 1)[0] };
}

/**
 * pino makes an error's own message the line's message when none is given
 * (`logger.error(err)`): a Prisma error's message holds the query's data. Such a call gets
 * the error's description as its message instead.
 */
function withSafeMessage(this: Logger, args: Parameters<Logger['info']>, method: Logger['info']): void {
  const [first, second] = args as unknown[];
  if (typeof second === 'string' || first === null || typeof first !== 'object') return void method.apply(this, args);
  const fields = first instanceof Error ? { err: first } : (first as Record<string, unknown>);
  const err = fields.err ?? fields.error;
  if (err === undefined) return void method.apply(this, args);
  method.call(this, fields, describeError(err));
}

/**
 * The root logger of a process, writing JSON lines to `destination` (stdout by default,
 * synchronously: a process that exits right after a line, as a refused start does, still
 * writes it; Heed logs a few lines per run, not per request, so the sync write costs nothing
 * measurable).
 * @example const logger = createLogger('info'); logger.child({ runId }).info('run released')
 */
export function createLogger(level: LogLevel, destination: DestinationStream = pino.destination({ fd: 1, sync: true })): Logger {
  return pino(loggerOptions(level), destination);
}
