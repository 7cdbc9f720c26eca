import type { Server } from 'node:http';
import pg from 'pg';
import type { Services } from '../../api/src/services.ts';

/** Where one request's time went, in the API process (a sample per profiled `message.send`). */
export interface SendSpans {
  /** request received → response finished */
  totalMs: number;
  /** PostgreSQL round trips (each `query` on a pg connection, BEGIN and COMMIT included) and their time */
  pgTrips: number;
  pgMs: number;
  /** of those, inside the interactive transaction */
  txTrips: number;
  txPgMs: number;
  /** the transaction, BEGIN to COMMIT (the pool's own, db/raw-sql.ts, or Prisma's `$transaction`) */
  txMs: number;
  redisCommands: number;
  redisMs: number;
  /** each round trip's statement (first words, no values), in order: what a send asks of the database */
  statements: string[];
}

/** What the hook counts for one request: the spans without the request's own total. */
type Counters = Omit<SendSpans, 'totalMs'>;

/**
 * A bench-only timing hook for the ingest API process: wraps pg's `Client.prototype.query`, the
 * process's Redis client and its transactions (the pool's own and Prisma's `$transaction`), and cuts the counts per HTTP request. The
 * counters are global, so figures are exact only for requests that do not overlap: the bench
 * profiles sends one at a time. Answers `spans:reset` / `spans:read` over IPC.
 */
export function installSpanHook() {
  const c: Counters = { pgTrips: 0, pgMs: 0, txTrips: 0, txPgMs: 0, txMs: 0, redisCommands: 0, redisMs: 0, statements: [] };
  let inTx = 0;
  const samples: SendSpans[] = [];

  const record = (t0: number, text: string) => () => {
    const ms = performance.now() - t0;
    c.pgTrips++;
    c.pgMs += ms;
    if (inTx > 0) {
      c.txTrips++;
      c.txPgMs += ms;
    }
    if (c.statements.length < 40) c.statements.push(text.replace(/\s+/g, ' ').trim().slice(0, 90));
  };
  const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const first = args[0] as string | { text?: string };
    const done = record(performance.now(), typeof first === 'string' ? first : (first?.text ?? '?'));
    const last = args.length - 1;
    if (typeof args[last] === 'function') {
      const callback = args[last] as (...a: unknown[]) => void;
      args[last] = (...a: unknown[]) => (done(), callback(...a));
      return query.apply(this, args);
    }
    const result = query.apply(this, args);
    if (result && typeof (result as Promise<unknown>).then === 'function') (result as Promise<unknown>).then(done, done);
    return result;
  } as typeof pg.Client.prototype.query;

  return {
    attach(server: Server, services: Services) {
      // node-redis hands out a view of the client (Object.create); commands run on `_self`
      type Commands = { sendCommand: (...a: unknown[]) => Promise<unknown>; _self?: Commands };
      const redis = (services.redis as unknown as Commands)._self ?? (services.redis as unknown as Commands);
      const send = redis.sendCommand.bind(redis);
      redis.sendCommand = async (...a: unknown[]) => {
        const t0 = performance.now();
        try {
          return await send(...a);
        } finally {
          c.redisCommands++;
          c.redisMs += performance.now() - t0;
        }
      };
      type Transact = (...a: unknown[]) => Promise<unknown>;
      const timed =
        (transaction: Transact): Transact =>
        async (...a) => {
          const t0 = performance.now();
          inTx++;
          try {
            return await transaction(...a);
          } finally {
            inTx--;
            c.txMs += performance.now() - t0;
          }
        };
      const db = services.db as unknown as { $transaction: Transact };
      db.$transaction = timed(db.$transaction.bind(db));
      const sql = services.sql as unknown as { transaction: Transact };
      sql.transaction = timed(sql.transaction.bind(sql));
      server.prependListener('request', (req, res) => {
        if (!req.url?.startsWith('/trpc/message.send')) return;
        const t0 = performance.now();
        const before = { ...c, statements: c.statements.length };
        c.statements.length = 0;
        res.once('finish', () => {
          samples.push({
            totalMs: performance.now() - t0,
            pgTrips: c.pgTrips - before.pgTrips,
            pgMs: c.pgMs - before.pgMs,
            txTrips: c.txTrips - before.txTrips,
            txPgMs: c.txPgMs - before.txPgMs,
            txMs: c.txMs - before.txMs,
            redisCommands: c.redisCommands - before.redisCommands,
            redisMs: c.redisMs - before.redisMs,
            statements: [...c.statements],
          });
        });
      });
      process.on('message', (m: { type?: string }) => {
        if (m?.type === 'spans:reset') samples.length = 0;
        if (m?.type === 'spans:read') process.send?.({ type: 'spans', samples });
      });
    },
  };
}
