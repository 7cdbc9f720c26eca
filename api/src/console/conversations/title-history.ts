import type { DbLike } from '../../db/types.ts';

export type TitleSourceName = 'first_message' | 'generated' | 'manual' | 'fixed';

/** One title a conversation had, from when (null when the log does not say). */
export interface TitleHistoryEntry {
  at: string | null;
  source: TitleSourceName;
  title: string | null;
}

/**
 * The titles a conversation went through (fallback → generated → manual/fixed), oldest first,
 * as far as stored: every title change is a `conversation.updated` event in the append-only
 * log, whose payload carries the title and its source, so the history is read from there
 * (consecutive repeats folded). A conversation whose events predate the log, or were lost,
 * still shows its current title, undated.
 */
export async function titleHistory(
  db: DbLike,
  c: { id: string; visitorId: string; title: string | null; titleSource: TitleSourceName | null },
): Promise<TitleHistoryEntry[]> {
  const rows = await db.$queryRaw<{ at: Date; title: string | null; source: TitleSourceName | null }[]>`
    SELECT "createdAt" AS at, payload #>> '{conversation,title}' AS title, payload #>> '{conversation,titleSource}' AS source
    FROM "Event"
    WHERE "visitorId" = ${c.visitorId}::uuid AND "conversationId" = ${c.id}::uuid AND type = 'conversation.updated'
    ORDER BY id`;
  const history: TitleHistoryEntry[] = [];
  for (const r of rows) {
    if (r.source === null) continue;
    const prev = history.at(-1);
    if (prev && prev.source === r.source && prev.title === r.title) continue;
    history.push({ at: r.at.toISOString(), source: r.source, title: r.title });
  }
  const last = history.at(-1);
  if (c.titleSource && (!last || last.source !== c.titleSource || last.title !== c.title)) {
    history.push({ at: null, source: c.titleSource, title: c.title });
  }
  return history;
}
