import { Prisma } from '../db/client.ts';
import type { DbLike } from '../db/types.ts';
import type { OperatorRole } from '../db/generated/client.ts';

/**
 * The sites an operator may act on: `null` means every site (owners always; agents whose
 * `siteIds` is empty, so a one-team deployment needs no setup), else the listed site ids.
 * Whatever lies outside answers NOT_FOUND, never FORBIDDEN: an agent of one site cannot even
 * learn that another site's conversation exists.
 */
export type SiteScope = readonly string[] | null;

/**
 * Reads an operator's scope (one primary-key lookup per request, so an owner's change of an
 * agent's sites applies at the agent's next request). An operator removed meanwhile gets no site.
 * @example await siteScopeOf(db, { operatorId, role: 'agent' }) // ['0b5e…'] or null
 */
export async function siteScopeOf(db: DbLike, staff: { operatorId: string; role: OperatorRole }): Promise<SiteScope> {
  if (staff.role === 'owner') return null;
  const row = await db.operator.findUnique({ where: { id: staff.operatorId }, select: { siteIds: true } });
  if (!row) return [];
  return row.siteIds.length === 0 ? null : row.siteIds;
}

/**
 * The scope as a SQL condition on a site id column.
 * @example Prisma.sql`WHERE ${siteScopeSql(scope, Prisma.sql`c."siteId"`)}`
 */
export function siteScopeSql(scope: SiteScope, column: Prisma.Sql): Prisma.Sql {
  return scope === null ? Prisma.sql`TRUE` : Prisma.sql`${column} = ANY(${[...scope]}::uuid[])`;
}

/** Whether the scope covers a site. */
export const coversSite = (scope: SiteScope, siteId: string): boolean => scope === null || scope.includes(siteId);
