import type { DbLike } from '../db/types.ts';
import type { TitleCheckFacts, TitleOutcome } from './title-writes.ts';

/** One audited title check as operators see it: outcome and cost, never any text. */
export type TitleCheckView = TitleCheckFacts & { id: string; conversationId: string; outcome: TitleOutcome; createdAt: string };

/**
 * The newest title checks and what titles cost since a moment, for the operator API (and
 * the admin dashboard to come). Reads only the content-free audit table.
 */
export async function titleCosts(
  db: DbLike,
  opts: { since: Date; limit: number },
): Promise<{ checks: TitleCheckView[]; totals: { checks: number; costUsd: number; byOutcome: Record<string, number> } }> {
  const where = { createdAt: { gte: opts.since } };
  const [rows, sum, groups] = await Promise.all([
    db.titleCheck.findMany({ where, orderBy: { createdAt: 'desc' }, take: opts.limit }),
    db.titleCheck.aggregate({ where, _count: true, _sum: { costUsd: true } }),
    db.titleCheck.groupBy({ by: ['outcome'], where, _count: true }),
  ]);
  return {
    checks: rows.map((r) => ({
      id: r.id,
      conversationId: r.conversationId,
      outcome: r.outcome,
      model: r.model,
      promptTokens: r.promptTokens,
      completionTokens: r.completionTokens,
      costUsd: r.costUsd === null ? null : Number(r.costUsd),
      latencyMs: r.latencyMs,
      errorCode: r.errorCode,
      createdAt: r.createdAt.toISOString(),
    })),
    totals: {
      checks: sum._count,
      costUsd: Number(sum._sum.costUsd ?? 0),
      byOutcome: Object.fromEntries(groups.map((g) => [g.outcome, g._count])),
    },
  };
}
