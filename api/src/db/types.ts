import type { Db } from './client.ts';

/** An interactive transaction's client. */
export type Tx = Parameters<Parameters<Db['$transaction']>[0]>[0];

/** Anything that can run queries: the client itself or a transaction. */
export type DbLike = Db | Tx;
