import { z } from 'zod';
import { listSources } from '../../../console/knowledge/sources.ts';
import { listUnanswered } from '../../../console/knowledge/unanswered-list.ts';
import { bumpKnowledgeVersion } from '../../../knowledge/knowledge-version.ts';
import { UnreadableFile } from '../../../knowledge/read-file.ts';
import { addKnowledgeFile, saveSnippet, SNIPPET_ANSWER_MAX, SNIPPET_QUESTION_MAX } from '../../../knowledge/text-sources.ts';
import { notFound, refuse } from '../../../errors/refusal.ts';
import { noNul, uuid } from '../../../inputs/fields.ts';
import { syncSource } from '../../../knowledge/sync-source.ts';
import { assertSiteInScope, consoleProcedure, ownerProcedure } from '../../console-procedure.ts';
import { router } from '../../trpc.ts';

/** Most sitemap or page sources one site keeps. */
export const SOURCES_MAX = 20;
/** Most files and snippets one site keeps, each. */
export const FILES_MAX = 100;
export const SNIPPETS_MAX = 500;

/** The procedure an upload goes to, whose body may be as large as a file (trpc-routes.ts). */
export const UPLOAD_PATH = 'console.knowledge.upload';

const fileName = z
  .string()
  .trim()
  .min(1, 'a file name')
  .max(200, 'at most 200 characters')
  .refine((n) => /\.(?:md|markdown|txt|text|html?|pdf)$/i.test(n), 'a Markdown, text, HTML or PDF file (.md, .txt, .html, .pdf)')
  .refine((n) => !/[\u0000-\u001F\u007F]/.test(n), 'must not contain control characters');

const snippetInput = z.strictObject({
  question: z
    .string()
    .trim()
    .min(1, 'a question')
    .max(SNIPPET_QUESTION_MAX, `at most ${SNIPPET_QUESTION_MAX} characters`)
    .refine(noNul, 'must not contain NUL characters'),
  answer: z
    .string()
    .trim()
    .min(1, 'an answer')
    .max(SNIPPET_ANSWER_MAX, `at most ${SNIPPET_ANSWER_MAX} characters`)
    .refine(noNul, 'must not contain NUL characters'),
});

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
    if ((await ctx.services.db.knowledgeSource.count({ where: { siteId: input.siteId, kind: 'site' } })) >= SOURCES_MAX)
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

  /**
   * Uploads a file (Markdown, plain text, HTML or PDF, base64) as a source: read at once, never
   * synced. A file too large, of another kind, or without text is refused with why.
   */
  upload: ownerProcedure
    .input(z.strictObject({ siteId: uuid, name: fileName, contentBase64: z.string().max(30_000_000).base64('the file as base64') }))
    .mutation(async ({ ctx, input }) => {
      assertSiteInScope(ctx, input.siteId);
      const s = ctx.services;
      const bytes = Buffer.from(input.contentBase64, 'base64');
      const max = s.config.KNOWLEDGE_MAX_FILE_BYTES;
      if (bytes.byteLength > max)
        throw refuse('bad_request', 'file_too_large', `${input.name} is larger than ${Math.floor(max / 1_000_000)} MB.`);
      if (!(await s.db.site.count({ where: { id: input.siteId } }))) throw notFound('site');
      if ((await s.db.knowledgeSource.count({ where: { siteId: input.siteId, kind: 'file' } })) >= FILES_MAX)
        throw refuse('conflict', 'too_many_files', `A site keeps at most ${FILES_MAX} files: remove one first.`);
      try {
        return await addKnowledgeFile(s, input.siteId, { name: input.name, bytes });
      } catch (err) {
        if (err instanceof UnreadableFile) throw refuse('bad_request', 'unreadable_file', `${input.name}: ${err.message}.`);
        throw err;
      }
    }),

  /** Adds a snippet (a question and the owner's answer) or, with `id`, changes one. */
  saveSnippet: ownerProcedure.input(snippetInput.extend({ siteId: uuid, id: uuid.optional() })).mutation(async ({ ctx, input }) => {
    assertSiteInScope(ctx, input.siteId);
    const s = ctx.services;
    if (!(await s.db.site.count({ where: { id: input.siteId } }))) throw notFound('site');
    if (!input.id && (await s.db.knowledgeSource.count({ where: { siteId: input.siteId, kind: 'snippet' } })) >= SNIPPETS_MAX)
      throw refuse('conflict', 'too_many_snippets', `A site keeps at most ${SNIPPETS_MAX} snippets: remove one first.`);
    const saved = await saveSnippet(s, input.siteId, input);
    if (!saved) throw notFound('snippet');
    return saved;
  }),

  /** The questions the site's knowledge had nothing for, newest first (words hidden in private conversations). */
  unanswered: consoleProcedure.input(z.strictObject({ siteId: uuid })).query(({ ctx, input }) => {
    assertSiteInScope(ctx, input.siteId);
    return listUnanswered(ctx.services.db, input.siteId);
  }),

  /** Marks an unanswered question handled (a page or a snippet now covers it): it leaves the list. */
  dismissUnanswered: ownerProcedure.input(z.strictObject({ id: uuid })).mutation(async ({ ctx, input }) => {
    const q = await ctx.services.db.unansweredQuestion.findUnique({ where: { id: input.id }, select: { siteId: true } });
    if (!q) throw notFound('question');
    assertSiteInScope(ctx, q.siteId);
    await ctx.services.db.unansweredQuestion.updateMany({ where: { id: input.id, dismissedAt: null }, data: { dismissedAt: new Date() } });
    return { dismissed: true };
  }),

  /** Removes a source with its pages: the assistant no longer answers from them. */
  remove: ownerProcedure.input(z.strictObject({ sourceId: uuid })).mutation(async ({ ctx, input }) => {
    const source = await ctx.services.db.knowledgeSource.findUnique({ where: { id: input.sourceId }, select: { siteId: true } });
    if (!source) throw notFound('source');
    assertSiteInScope(ctx, source.siteId);
    await ctx.services.db.knowledgeSource.delete({ where: { id: input.sourceId } });
    await bumpKnowledgeVersion(ctx.services.sql, source.siteId);
    return { removed: true };
  }),
});
