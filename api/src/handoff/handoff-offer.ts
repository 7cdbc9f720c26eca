import type { DbLike } from '../db/types.ts';

/**
 * Whether a run may offer the model `handoff_to_human`: the site enabled it (console setting
 * `handoffEnabled`), the conversation is not private (nobody in the console could read it) and
 * no operator holds it already. Read once per run, from the row (the site policy cache does
 * not carry the setting).
 */
export async function handoffOffered(db: DbLike, conversationId: string): Promise<boolean> {
  const [row] = await db.$queryRaw<{ offered: boolean }[]>`
    SELECT s."handoffEnabled" AND NOT c.private AND c."heldById" IS NULL AS offered
    FROM "Conversation" c JOIN "Site" s ON s.id = c."siteId"
    WHERE c.id = ${conversationId}::uuid`;
  return row?.offered ?? false;
}
