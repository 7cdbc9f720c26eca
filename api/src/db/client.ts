import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from './generated/client.ts';

export type Db = PrismaClient;
export { Prisma } from './generated/client.ts';

/** A Prisma client over the pg driver adapter (Prisma 7 needs one; see ../shared/STACK.md). */
export function createDb(databaseUrl: string, opts: { max?: number } = {}): Db {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString: databaseUrl, max: opts.max ?? 10 }) });
}
