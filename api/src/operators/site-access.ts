import { Prisma } from '../db/client.ts';
import type { OperatorRole } from '../db/generated/client.ts';

/**
 * The sites an operator may act on: `null` means every site (owners always; agents whose
 * `allSites` was chosen explicitly), else the listed site ids (an agent with none acts on no
 * site). Whatever lies outside answers NOT_FOUND, never FORBIDDEN: an agent of one site cannot
 * even learn that another site's conversation exists.
 */
export type SiteScope = readonly string[] | null;

/** The operator columns a scope is made from (read with the session, so it is never stale by more than a request). */
export const SCOPE_SELECT = { role: true, siteIds: true, allSites: true } as const satisfies Prisma.OperatorSelect;

/**
 * An operator's scope from their row.
 * @example siteScopeOf({ role: 'agent', siteIds: ['0b5e…'], allSites: false }) // ['0b5e…']
 */
export function siteScopeOf(row: { role: OperatorRole; siteIds: readonly string[]; allSites: boolean }): SiteScope {
  if (row.role === 'owner' || row.allSites) return null;
  return row.siteIds;
}

/** What an owner chose for an agent: every site, or these (none: no site). */
export type SiteChoice = 'all' | readonly string[];

/** The columns that store a choice. */
export const siteChoiceData = (choice: SiteChoice) =>
  choice === 'all' ? { allSites: true, siteIds: [] } : { allSites: false, siteIds: [...new Set(choice.map((id) => id.toLowerCase()))] };

/**
 * The scope as a SQL condition on a site id column.
 * @example Prisma.sql`WHERE ${siteScopeSql(scope, Prisma.sql`c."siteId"`)}`
 */
export function siteScopeSql(scope: SiteScope, column: Prisma.Sql): Prisma.Sql {
  return scope === null ? Prisma.sql`TRUE` : Prisma.sql`${column} = ANY(${[...scope]}::uuid[])`;
}

/** Whether the scope covers a site. */
export const coversSite = (scope: SiteScope, siteId: string): boolean => scope === null || scope.includes(siteId);

/**
 * The site ids of a scope that a caller with `viewer` scope may learn (an agent listing the
 * team sees other agents' sites only where they share them).
 */
export const visibleSiteIds = (ids: readonly string[], viewer: SiteScope): string[] => ids.filter((id) => coversSite(viewer, id));
