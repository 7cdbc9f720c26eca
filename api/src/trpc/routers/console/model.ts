import { modelStatus } from '../../../console/model/model-features.ts';
import { consoleProcedure } from '../../console-procedure.ts';
import { router } from '../../trpc.ts';

/** console.model — the configured model server as Heed found it (any operator, over the sites they belong to). */
export const modelRouter = router({
  /** Per model in use: the flags in force (declared in OPENAI_COMPAT or learned from a refusal) and what each turns off. */
  status: consoleProcedure.query(({ ctx }) =>
    modelStatus(ctx.services.db, ctx.services.config, ctx.services.capabilities.baseUrl, ctx.sites),
  ),
});
