import { z } from 'zod';
import { limitSends } from '../send-limits.ts';
import { fireIntent, type FireInput } from '../../proactive/fire-intent.ts';
import { router, visitorProcedure } from '../trpc.ts';

/**
 * Typed `{ name: string, data?: unknown }` for clients, but anything is accepted at run time:
 * an intent the page got wrong is ignored and counted (`bad_name`, `bad_data`), never an error
 * the host page would have to handle. Only an input that is not an object at all reads as empty.
 */
const fireInput = z
  .custom<{ name: string; data?: unknown }>(() => true)
  .transform((v): FireInput => (v && typeof v === 'object' ? (v as FireInput) : {}));

export const intentRouter = router({
  /**
   * `Heed('intent', name, data?)`: the host page says the visitor did something meaningful. The
   * site's intent rules and the unsolicited-message budget decide whether a message follows:
   * `queued` (a run writes it soon) or `ignored` (counted for the console, never explained to
   * the page). Rate-limited with the visitor's sends; only that and a bad token are errors.
   */
  fire: visitorProcedure
    .use(limitSends)
    .input(fireInput)
    .mutation(({ ctx, input }) => fireIntent(ctx.services, ctx.visitor, input)),
});
