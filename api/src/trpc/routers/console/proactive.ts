import { z } from 'zod';
import { createApiKey, listApiKeys, revokeApiKey } from '../../../proactive/api-keys.ts';
import { intentRuleInput, listIntentRules, removeIntentRule, saveIntentRule } from '../../../proactive/intent-rules.ts';
import { proactiveStats } from '../../../proactive/stats.ts';
import { assertSiteInScope, consoleProcedure, ownerProcedure } from '../../console-procedure.ts';
import { uuid } from '../../../inputs/fields.ts';
import { notFound, refuse } from '../../../errors/refusal.ts';
import { router } from '../../trpc.ts';

const siteRef = z.strictObject({ siteId: uuid });

const apiKeyName = z
  .string()
  .max(160)
  .transform((s) => s.trim())
  .pipe(
    z
      .string()
      .min(1, 'must not be empty')
      .max(80, 'at most 80 characters')
      .refine((s) => !/[\u0000-\u001F\u007F]/.test(s), 'must not contain control characters'),
  );

/**
 * console.proactive: a site's intent rules (what `Heed('intent', …)` may say), its API keys for
 * server-to-server messages, and how many unsolicited messages went out or were refused.
 * Every change is owner-only.
 */
export const proactiveRouter = router({
  intentRules: router({
    /** The site's rules by name. */
    list: consoleProcedure.input(siteRef).query(async ({ ctx, input }) => {
      assertSiteInScope(ctx, input.siteId);
      return listIntentRules(ctx.services.db, input.siteId);
    }),

    /**
     * Creates a rule (no `id`) or changes one; exactly one of `instruction` (the model writes the
     * message) or `fixedMessage` (said as is). CONFLICT `intent_name_taken` for a name the site has.
     */
    save: ownerProcedure.input(intentRuleInput).mutation(async ({ ctx, input }) => {
      const saved = await saveIntentRule(ctx.services.db, input);
      if (saved === 'not_found') throw notFound(input.id ? 'intent rule' : 'site');
      if (saved === 'name_taken') throw refuse('conflict', 'intent_name_taken', `This site already has an intent named "${input.name}".`);
      return saved;
    }),

    /** Deletes a rule; intents of that name are ignored from now on (`unknown_intent`). */
    remove: ownerProcedure.input(z.strictObject({ siteId: uuid, id: uuid })).mutation(async ({ ctx, input }) => {
      if (!(await removeIntentRule(ctx.services.db, input.siteId, input.id))) throw notFound('intent rule');
      return { ok: true as const };
    }),
  }),

  apiKeys: router({
    /** The site's keys, newest first (prefix only; the key itself was shown once, at creation). */
    list: consoleProcedure.input(siteRef).query(async ({ ctx, input }) => {
      assertSiteInScope(ctx, input.siteId);
      return listApiKeys(ctx.services.db, input.siteId);
    }),

    /** A new key: `key` is answered this once and never again (only its hash is kept). */
    create: ownerProcedure.input(z.strictObject({ siteId: uuid, name: apiKeyName })).mutation(async ({ ctx, input }) => {
      const created = await createApiKey(ctx.services.db, input.siteId, input.name);
      if (!created) throw notFound('site');
      return created;
    }),

    /** Revokes a key at once: its next request is 401. */
    revoke: ownerProcedure.input(z.strictObject({ siteId: uuid, id: uuid })).mutation(async ({ ctx, input }) => {
      if (!(await revokeApiKey(ctx.services.db, input.siteId, input.id))) throw notFound('API key');
      return { ok: true as const };
    }),
  }),

  /** Unsolicited messages delivered by kind and refusals by reason, over the last `days` UTC days (default 7). */
  stats: consoleProcedure
    .input(z.strictObject({ siteId: uuid, days: z.number().int().min(1).max(90).default(7) }))
    .query(async ({ ctx, input }) => {
      assertSiteInScope(ctx, input.siteId);
      if ((await ctx.services.db.site.count({ where: { id: input.siteId } })) === 0) throw notFound('site');
      return proactiveStats(ctx.services.db, input.siteId, input.days);
    }),
});
