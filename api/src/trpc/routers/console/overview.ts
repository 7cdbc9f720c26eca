import { z } from 'zod';
import { overviewRange } from '../../../console/overview/range.ts';
import { overviewSeries } from '../../../console/overview/series.ts';
import { consoleProcedure } from '../../console-procedure.ts';
import { uuid } from '../../../inputs/fields.ts';
import { router } from '../../trpc.ts';

/** The overview's input: a range and, optionally, one site (every site by default). */
export const overviewInput = z.strictObject({ range: overviewRange, siteId: uuid.optional() });

/** console.overview — the charts' data (any operator, over the sites they belong to). */
export const overviewRouter = router({
  /**
   * Conversations, replies, failures by kind, time to first token p50/p95, tokens and cost per
   * UTC hour (24h) or day (7d, 30d), zero-filled, oldest first.
   */
  series: consoleProcedure.input(overviewInput).query(({ ctx, input }) => overviewSeries(ctx.services.db, { ...input, scope: ctx.sites })),
});
