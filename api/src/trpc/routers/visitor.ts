import { experimental_trpcMiddleware } from '@trpc/server';
import { z } from 'zod';
import type { VisitorClaims } from '../../auth/visitor-token.ts';
import { limitPageReport } from '../../limits/guards.ts';
import { pageTitle, pageUrl } from '../../visitors/page-fields.ts';
import { reportPage } from '../../visitors/report-page.ts';
import type { Context } from '../trpc.ts';
import { router, visitorProcedure } from '../trpc.ts';

/** The visitor's page-report window (limits/guards.ts), placed before the input so invalid reports count too. */
const limitPageReports = experimental_trpcMiddleware<{ ctx: Context & { visitor: VisitorClaims } }>().create(async ({ ctx, next }) => {
  await limitPageReport(ctx);
  return next();
});

export const visitorRouter = router({
  /**
   * The host page the visitor is on, for the console's visitor profile: `url` an http(s) address
   * of at most 2000 characters, `title` at most 300 (both without control characters; '' for
   * none). The widget sends it on load and when the address or title changes, only for sites
   * that share visitor pages (`site.shareVisitorPages` in the session's answer). For a site that
   * does not, nothing is stored and the answer is `{ stored: false }`. Over the visitor's
   * `pageReports` window: 429 `page_report_limit` with `Retry-After`.
   */
  page: visitorProcedure
    .use(limitPageReports)
    .input(z.strictObject({ url: pageUrl, title: pageTitle }))
    .mutation(({ ctx, input }) => reportPage(ctx.services, ctx.visitor, input)),
});
