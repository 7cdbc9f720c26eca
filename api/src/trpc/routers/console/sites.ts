import { z } from 'zod';
import { createSite, readSiteSettings, updateSite } from '../../../sites/site-settings.ts';
import { countSiteContents, deleteSite } from '../../../sites/site-settings-delete.ts';
import { createSiteInput, updateSiteInput } from '../../../sites/site-settings-input.ts';
import { rotateIdentitySecret } from '../../../sites/site-settings-secret.ts';
import { assertSiteInScope, consoleBaseUrl, consoleProcedure, ownerProcedure } from '../../console-procedure.ts';
import { siteKey, uuid } from '../../../inputs/fields.ts';
import { notFound, refuse } from '../../../errors/refusal.ts';
import { router } from '../../trpc.ts';

const siteRef = z.strictObject({ siteId: uuid });

/**
 * console.sites: every site of the deployment. Operators read the sites they may act on
 * (`ctx.sites`; see operators/site-access.ts); owners create, change and delete. A change reaches this process's policy cache at once (`sites.clear()`) and the
 * other processes within its 5 s TTL: the next widget load and the next run use it.
 */
export const sitesRouter = router({
  /** Every site, oldest first, with how many conversations it holds. */
  list: consoleProcedure.query(async ({ ctx }) => {
    const scope = ctx.sites;
    const rows = await ctx.services.db.site.findMany({
      where: scope === null ? {} : { id: { in: [...scope] } },
      select: { id: true, key: true, name: true, createdAt: true, _count: { select: { conversations: true } } },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    });
    return rows.map(({ _count, ...site }) => ({ ...site, conversations: _count.conversations }));
  }),

  /** One site's settings (identity secrets counted, never shown) and its embed snippet. */
  get: consoleProcedure.input(siteRef).query(async ({ ctx, input }) => {
    assertSiteInScope(ctx, input.siteId);
    const settings = await readSiteSettings(ctx.services.db, input.siteId, consoleBaseUrl(ctx));
    if (!settings) throw notFound('site');
    return settings;
  }),

  /** A new site; its key is made from the name when not given (`site_key_taken` when a given one exists). */
  create: ownerProcedure.input(createSiteInput).mutation(async ({ ctx, input }) => {
    const settings = await createSite(ctx.services.db, input, consoleBaseUrl(ctx));
    ctx.services.sites.clear();
    return settings;
  }),

  /** Changes the named settings; the others stay. */
  update: ownerProcedure.input(updateSiteInput).mutation(async ({ ctx, input }) => {
    const { siteId, ...change } = input;
    const settings = await updateSite(ctx.services.db, siteId, change, consoleBaseUrl(ctx));
    if (!settings) throw notFound('site');
    ctx.services.sites.clear();
    return settings;
  }),

  /** What deleting the site would remove now, for the owner's confirmation dialog. */
  deletion: ownerProcedure.input(siteRef).query(async ({ ctx, input }) => {
    assertSiteInScope(ctx, input.siteId);
    const exists = await ctx.services.db.site.count({ where: { id: input.siteId } });
    if (!exists) throw notFound('site');
    return countSiteContents(ctx.services.db, input.siteId);
  }),

  /**
   * Deletes the site and everything of it in one transaction. `confirmKey` must be the
   * site's key (typed by the owner), else BAD_REQUEST `confirm_key_mismatch`.
   */
  delete: ownerProcedure.input(z.strictObject({ siteId: uuid, confirmKey: siteKey })).mutation(async ({ ctx, input }) => {
    const site = await ctx.services.db.site.findUnique({ where: { id: input.siteId }, select: { key: true } });
    if (!site) throw notFound('site');
    if (site.key !== input.confirmKey) throw refuse('bad_request', 'confirm_key_mismatch', "Type the site's key to confirm the deletion.");
    const deleted = await deleteSite(ctx.services.db, input.siteId, ctx.services.files, ctx.services.logger);
    ctx.services.sites.clear();
    if (!deleted) throw notFound('site');
    return { deleted };
  }),

  /** A new identity secret, answered this once; the previous one stays valid as the second. */
  rotateIdentitySecret: ownerProcedure.input(siteRef).mutation(async ({ ctx, input }) => {
    const secret = await rotateIdentitySecret(ctx.services.db, input.siteId);
    if (!secret) throw notFound('site');
    ctx.services.sites.clear();
    return { secret };
  }),
});
