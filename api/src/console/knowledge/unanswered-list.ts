import type { Db } from '../../db/client.ts';

/** Questions one list shows: the newest; older ones wait until these are handled. */
export const UNANSWERED_SHOWN = 100;

/** A question the site's knowledge had nothing for, as the console lists it. */
export interface UnansweredView {
  id: string;
  conversationId: string;
  /** the visitor's words; null in a private conversation, whose words operators never see */
  text: string | null;
  createdAt: Date;
}

/**
 * The site's unanswered questions not yet handled, newest first, with how many there are in
 * all and in the last 7 days: what to write a page or a snippet about.
 * @example await listUnanswered(db, siteId) // { total: 3, lastWeek: 2, questions: [...] }
 */
export async function listUnanswered(db: Db, siteId: string): Promise<{ total: number; lastWeek: number; questions: UnansweredView[] }> {
  const open = { siteId, dismissedAt: null };
  const weekAgo = new Date(Date.now() - 7 * 24 * 3600_000);
  const [total, lastWeek, rows] = await Promise.all([
    db.unansweredQuestion.count({ where: open }),
    db.unansweredQuestion.count({ where: { ...open, createdAt: { gte: weekAgo } } }),
    db.unansweredQuestion.findMany({
      where: open,
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: UNANSWERED_SHOWN,
      select: { id: true, conversationId: true, text: true, createdAt: true, conversation: { select: { private: true } } },
    }),
  ]);
  return {
    total,
    lastWeek,
    questions: rows.map((r) => ({
      id: r.id,
      conversationId: r.conversationId,
      text: r.conversation.private ? null : r.text,
      createdAt: r.createdAt,
    })),
  };
}
