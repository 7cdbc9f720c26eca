import type { DbLike } from '../../db/types.ts';

/** A conversation's rating as the conversation CSV writes it. */
export interface PageRating {
  rating: number | null;
  /** null for a private conversation: the visitor's words, which the console never shows */
  comment: string | null;
  ratedAt: Date | null;
}

/**
 * The visitor's rating of each conversation of one page of the list, by id: one primary-key
 * read of the page's ids, which the list has already scoped to the operator's sites. The row
 * keeps the latest rating the visitor gave (of an earlier resolution too, should it have been
 * reopened), as the overview counts it; its time says which. A private conversation's comment
 * is withheld here, in the statement, so its words never leave the database.
 * @example (await pageRatings(db, [id])).get(id) // { rating: 1, comment: 'Quick and kind', ratedAt: … }
 */
export async function pageRatings(db: DbLike, ids: readonly string[]): Promise<Map<string, PageRating>> {
  if (ids.length === 0) return new Map();
  const rows = await db.$queryRaw<({ id: string } & PageRating)[]>`
    SELECT id, rating::int AS rating, CASE WHEN private THEN NULL ELSE "ratingComment" END AS comment, "ratedAt"
    FROM "Conversation" WHERE id = ANY(${[...ids]}::uuid[])`;
  return new Map(rows.map(({ id, ...r }) => [id, r]));
}
