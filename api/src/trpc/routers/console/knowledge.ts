import { z } from 'zod';
import { listSources } from '../../../console/knowledge/sources.ts';
import { notFound, refuse } from '../../../errors/refusal.ts';
import { uuid } from '../../../inputs/fields.ts';
import { syncSource } from '../../../knowledge/sync-source.ts';
import { assertSiteInScope, consoleProcedure, ownerProcedure } from '../../console-procedure.ts';
import { router } from '../../trpc.ts';

/** Most sources one site keeps. */
export const SOURCES_MAX = 20;

const sourceUrl = z
  .string()
  .trim()
  .max(2000, 'at most 2000 characters')
  .refine((u) => URL.canParse(u) && /^https?:$/.test(new URL(u).protocol), 'an http or https URL, e.g. https://shop.example/sitemap.xml');

/**
 * console.knowledge: where a site's assistant gets its knowledge. Operators read a site's
 * sources; owners add, sync and remove them. A sync runs in the background (the list shows it
 * syncing, then its pages and errors); the schedule syncs each source again after a day.
 */
export const knowledgeRouter = router({
  /** A site's sources with their pages, excerpts and last sync. */
  sources: consoleProcedure.input(z.strictObject({ siteId: uuid })).query(({ ctx, input }) => {
    assertSiteInScope(ctx, input.siteId);
    return listSources(ctx.services.db, input.siteId);
  }),

  /** Adds a sitemap or page URL and starts its first sync. */
  add: ownerProcedure.input(z.strictObject({ siteId: uuid, url: sourceUrl })).mutation(async ({ ctx, input }) => {
    assertSiteInScope(ctx, input.siteId);
    const site = await ctx.services.db.site.count({ where: { id: input.siteId } });
    if (!site) throw notFound('site');
    if ((await ctx.services.db.knowledgeSource.count({ where: { siteId: input.siteId } })) >= SOURCES_MAX)
      throw refuse('conflict', 'too_many_sources', `A site keeps at most ${SOURCES_MAX} sources: remove one first.`);
    const url = new URL(input.url).href;
    // the same URL again is the same source (synced once more), never a second one
    const source = await ctx.services.db.knowledgeSource.upsert({
      where: { siteId_url: { siteId: input.siteId, url } },
      update: {},
      create: { siteId: input.siteId, url },
      select: { id: true },
    });
    void syncSource(ctx.services, source.id).catch((err) =>
      ctx.services.logger.warn({ err, sourceId: source.id }, 'knowledge sync failed'),
    );
    return source;
  }),

  /** "Sync now": syncs the source at once, in the background (a sync in progress is left to finish). */
  sync: ownerProcedure.input(z.strictObject({ sourceId: uuid })).mutation(async ({ ctx, input }) => {
    const source = await ctx.services.db.knowledgeSource.findUnique({ where: { id: input.sourceId }, select: { siteId: true } });
    if (!source) throw notFound('source');
    assertSiteInScope(ctx, source.siteId);
    void syncSource(ctx.services, input.sourceId).catch((err) =>
      ctx.services.logger.warn({ err, sourceId: input.sourceId }, 'knowledge sync failed'),
    );
    return { started: true };
  }),

  /** Removes a source with its pages: the assistant no longer answers from them. */
  remove: ownerProcedure.input(z.strictObject({ sourceId: uuid })).mutation(async ({ ctx, input }) => {
    const source = await ctx.services.db.knowledgeSource.findUnique({ where: { id: input.sourceId }, select: { siteId: true } });
    if (!source) throw notFound('source');
    assertSiteInScope(ctx, source.siteId);
    await ctx.services.db.knowledgeSource.delete({ where: { id: input.sourceId } });
    return { removed: true };
  }),
});
