import OpenAI from 'openai';
import { AbortError as RedisCommandAborted } from 'redis';

/**
 * Whose fault a run's failure was (`runErrorKind` in run-failure.ts), which decides what the visitor reads and whether the batch
 * is tried again:
 * - `model`: the model provider (a ReplyFailedError: `streamReply` already retried it);
 * - `infrastructure`: our database or Redis was away (a terminated connection, a refused or
 *   reset socket, a pool timeout): the model was never at fault, and another run soon will do;
 * - `internal`: anything else is a bug in our own code (a TypeError, a bad statement).
 */
export type RunErrorKind = 'model' | 'infrastructure' | 'internal';

/**
 * Socket errors (`err.code`) of a store that went away or never answered. `pg` and `ioredis`
 * surface these as they are; Prisma's driver adapter wraps them (see {@link isInfrastructureError}).
 */
const SOCKET_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * Prisma's own codes for a database it could not use: P1xxx (unreachable, timed out, closed the
 * connection), P2024 (no pool connection in time), P2028 (the transaction's connection was lost),
 * P2034 (write conflict or deadlock: try again).
 */
const PRISMA_CODES = /^(P1\d{3}|P2024|P2028|P2034)$/;

/**
 * SQLSTATE classes and codes that say the server, not the statement, failed: 08 connection
 * exception, 53 insufficient resources, 57P01-57P05 operator intervention (`pg_terminate_backend`
 * is 57P01, a shutdown 57P02/57P03), 58 system error, 40001/40P01 serialization and deadlock.
 */
const SQLSTATE = /^(08|53|58|57P0[1-5]|40001|40P01)/;

/** The driver adapter's error kinds that mean the connection, not the query, broke. */
const ADAPTER_KINDS = new Set([
  'DatabaseNotReachable',
  'DatabaseDoesNotExist',
  'ConnectionClosed',
  'SocketTimeout',
  'TooManyConnections',
  'TransactionAlreadyClosed',
]);

/** node-redis' errors (by class name) for a connection that is closed, offline, dropped or timed out. */
const REDIS_NAMES = new Set([
  'ClientClosedError',
  'ClientOfflineError',
  'DisconnectsClientError',
  'SocketClosedUnexpectedlyError',
  'ConnectionTimeoutError',
  'SocketTimeoutError',
  'ReconnectStrategyError',
  'TimeoutError',
]);

/** Messages of errors that carry no code: pg's socket ends and pool timeouts, Prisma's unreachable server. */
const MESSAGES =
  /Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect|Can't reach database server|Timed out fetching a new connection/i;

/**
 * Whether the error (or any error in its `cause` chain, or the driver adapter error Prisma keeps
 * in `meta.driverAdapterError`) came from a store that was unavailable, as measured here: a
 * backend ended by `pg_terminate_backend` reaches Prisma 7 as `P2010` with
 * `meta.driverAdapterError.cause = { kind: 'postgres', code: '57P01' }`; a closed port as `P1001`
 * (model queries) or `P2010` (raw ones) with `cause.kind = 'DatabaseNotReachable'`.
 */
export function isInfrastructureError(err: unknown): boolean {
  const seen = new Set<unknown>();
  for (let e: unknown = err; e && typeof e === 'object' && !seen.has(e); ) {
    seen.add(e);
    const o = e as {
      code?: unknown;
      name?: unknown;
      message?: unknown;
      meta?: { driverAdapterError?: unknown };
      cause?: unknown;
      kind?: unknown;
      originalCode?: unknown;
    };
    const code = typeof o.code === 'string' ? o.code : '';
    if (SOCKET_CODES.has(code) || PRISMA_CODES.test(code) || (o.kind === 'postgres' && SQLSTATE.test(code))) return true;
    if (typeof o.originalCode === 'string' && SQLSTATE.test(o.originalCode)) return true;
    if (typeof o.kind === 'string' && ADAPTER_KINDS.has(o.kind)) return true;
    // a model connection error wraps a socket error too, and it is the model's (classifyModelError)
    if (e instanceof OpenAI.APIError) return false;
    // node-redis sets no `name` on its errors: the class says which
    if (REDIS_NAMES.has(String(o.name)) || REDIS_NAMES.has((e as object).constructor?.name)) return true;
    // a command not sent within its deadline (redis/command-deadline.ts): Redis was away
    if (e instanceof RedisCommandAborted) return true;
    if (typeof o.message === 'string' && MESSAGES.test(o.message)) return true;
    // pg's own DatabaseError carries the SQLSTATE in `code` too (5 characters, no kind)
    if (o.name === 'error' && /^[0-9A-Z]{5}$/.test(code) && SQLSTATE.test(code)) return true;
    e = o.meta?.driverAdapterError ?? o.cause;
  }
  return false;
}
