import { z } from 'zod';
import { accessChanged } from '../../../operators/access-changed.ts';
import { inviteOperator } from '../../../operators/invites.ts';
import { queueInvitation } from '../../../email/invitation.ts';
import { operatorEmail, operatorName } from '../../../operators/operator-inputs.ts';
import { removeOperator } from '../../../operators/remove-operator.ts';
import { siteChoiceData, visibleSiteIds, type SiteChoice, type SiteScope } from '../../../operators/site-access.ts';
import type { Db, Prisma } from '../../../db/client.ts';
import { consoleBaseUrl, consoleProcedure, ownerProcedure } from '../../console-procedure.ts';
import { uuid } from '../../../inputs/fields.ts';
import { notFound, refuse } from '../../../errors/refusal.ts';
import { router } from '../../trpc.ts';

/** A row of the team list; `passwordHash` is read only to say whether the invitation is pending. */
const LIST_SELECT = {
  id: true,
  email: true,
  name: true,
  role: true,
  allSites: true,
  siteIds: true,
  passwordHash: true,
  createdAt: true,
} as const satisfies Prisma.OperatorSelect;

/** Most sites one agent is given (a deployment has a handful; the bound keeps the row small). */
const SITES_MAX = 100;

/** An agent's sites as an owner chooses them: `'all'` (explicitly every site) or a list (empty: no site). */
const siteChoice = z.union([z.literal('all'), z.array(uuid).max(SITES_MAX)]);

type ListRow = Prisma.OperatorGetPayload<{ select: typeof LIST_SELECT }>;

/** A row as a console user may see it: an agent sees other operators' sites only where they share them. */
const toItem = ({ passwordHash, siteIds, ...rest }: ListRow, viewer: { sites: SiteScope }) => ({
  ...rest,
  siteIds: visibleSiteIds(siteIds, viewer.sites),
  pending: passwordHash === null,
});

/** Refuses a choice naming a site that does not exist (BAD_REQUEST `unknown_site`). */
async function assertSitesExist(db: Db, choice: SiteChoice): Promise<void> {
  if (choice === 'all') return;
  const ids = siteChoiceData(choice).siteIds;
  if ((await db.site.count({ where: { id: { in: ids } } })) !== ids.length)
    throw refuse('bad_request', 'unknown_site', 'One of these sites does not exist.');
}

/** console.operators: the team. Everyone sees it; owners invite and remove. */
export const operatorsRouter = router({
  /**
   * Every operator, oldest first; `pending` while an invitation is not accepted yet; an agent's
   * sites: `allSites` (every site, chosen explicitly) or `siteIds` (none: no site); owners act on
   * every site whatever is stored. An agent sees other operators' `siteIds` only where they
   * share them.
   */
  list: consoleProcedure.query(async ({ ctx }) => {
    const rows = await ctx.services.db.operator.findMany({ select: LIST_SELECT, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
    return rows.map((row) => toItem(row, ctx));
  }),

  /**
   * Invites an operator: answers the invitation link, valid 7 days, shown this once (only
   * its token's hash is stored), and `emailed`: whether the server emails it to them too (with
   * SMTP_URL; the link then also rides in the queued email until it is sent). An email whose
   * invitation is pending gets a new link. An agent's `sites` are named here: `'all'`, or the
   * sites they will work on (left out: none, until an owner sets them).
   */
  invite: ownerProcedure
    .input(z.strictObject({ email: operatorEmail, name: operatorName, role: z.enum(['owner', 'agent']), sites: siteChoice.default([]) }))
    .mutation(async ({ ctx, input }) => {
      await assertSitesExist(ctx.services.db, input.sites);
      const { id, token } = await inviteOperator(ctx.services.db, { ...input, sites: input.role === 'owner' ? [] : input.sites });
      const row = await ctx.services.db.operator.findUniqueOrThrow({ where: { id }, select: LIST_SELECT });
      const consoleUrl = consoleBaseUrl(ctx);
      const emailed = await queueInvitation(ctx.services.db, ctx.services.config, { operatorId: id, email: row.email, token, consoleUrl });
      return { operator: toItem(row, ctx), inviteUrl: `${consoleUrl}admin/#/invite/${token}`, emailed };
    }),

  /** Removes an operator and signs them out everywhere, open streams included; not yourself (`remove_self`), never the last owner (`last_owner`). */
  remove: ownerProcedure.input(z.strictObject({ operatorId: uuid })).mutation(async ({ ctx, input }) => {
    const removed = await removeOperator(ctx.services.db, { operatorId: input.operatorId, by: ctx.staff.operatorId });
    if (!removed) throw notFound('operator');
    await accessChanged(ctx.services.bus, [input.operatorId]);
    return { removed: true as const };
  }),

  /**
   * Sets the sites an agent acts on: `'all'`, or a list (empty: no site); the agent's next
   * request uses them. Unknown site ids are refused (BAD_REQUEST `unknown_site`). An owner acts
   * on every site whatever is stored, so owners are refused (BAD_REQUEST `owner_sites`) rather
   * than silently ignored.
   */
  setSites: ownerProcedure.input(z.strictObject({ operatorId: uuid, sites: siteChoice })).mutation(async ({ ctx, input }) => {
    const { db } = ctx.services;
    const target = await db.operator.findUnique({ where: { id: input.operatorId }, select: { role: true } });
    if (!target) throw notFound('operator');
    if (target.role === 'owner') throw refuse('bad_request', 'owner_sites', 'Owners act on every site: only an agent’s sites can be set.');
    await assertSitesExist(db, input.sites);
    const row = await db.operator.update({ where: { id: input.operatorId }, data: siteChoiceData(input.sites), select: LIST_SELECT });
    await accessChanged(ctx.services.bus, [input.operatorId]);
    return toItem(row, ctx);
  }),
});
