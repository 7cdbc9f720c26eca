import { Prisma } from '../db/client.ts';
import type { DbLike } from '../db/types.ts';

/**
 * Whether a run may offer the model `handoff_to_human`: the site enabled it (console setting
 * `handoffEnabled`), the conversation is not private (nobody in the console could read it) and
 * no operator holds it already. Read once per run, from the row (the site policy cache does
 * not carry the setting).
 */
export async function handoffOffered(db: DbLike, conversationId: string): Promise<boolean> {
  const [row] = await db.$queryRaw<{ offered: boolean }[]>`SELECT (${handoffOfferedSql(conversationId)}) AS offered`;
  return row?.offered ?? false;
}

/**
 * {@link handoffOffered} as a boolean scalar subquery (false for an unknown conversation), so a
 * run's first statement can carry it (chat/context/context-query.ts). The one owner of the rule.
 */
export function handoffOfferedSql(conversationId: string): Prisma.Sql {
  return Prisma.sql`coalesce((
    SELECT s."handoffEnabled" AND NOT c.private AND c."heldById" IS NULL
    FROM "Conversation" c JOIN "Site" s ON s.id = c."siteId"
    WHERE c.id = ${conversationId}::uuid), false)`;
}
