import { z } from 'zod';
import { inviteOperator } from '../../../operators/invites.ts';
import { operatorEmail, operatorName } from '../../../operators/operator-inputs.ts';
import { removeOperator } from '../../../operators/remove-operator.ts';
import type { Prisma } from '../../../db/client.ts';
import { consoleBaseUrl, consoleProcedure, ownerProcedure } from '../../console-procedure.ts';
import { uuid } from '../../inputs.ts';
import { refuse } from '../../refusal.ts';
import { notFound, router } from '../../trpc.ts';

/** A row of the team list; `passwordHash` is read only to say whether the invitation is pending. */
const LIST_SELECT = { id: true, email: true, name: true, role: true, siteIds: true, passwordHash: true, createdAt: true } as const satisfies Prisma.OperatorSelect;

/** Most sites one agent is given (a deployment has a handful; the bound keeps the row small). */
const SITES_MAX = 100;

type ListRow = Prisma.OperatorGetPayload<{ select: typeof LIST_SELECT }>;

const toItem = ({ passwordHash, ...rest }: ListRow) => ({ ...rest, pending: passwordHash === null });

/** console.operators: the team. Everyone sees it; owners invite and remove. */
export const operatorsRouter = router({
  /**
   * Every operator, oldest first; `pending` while an invitation is not accepted yet; `siteIds`:
   * the sites an agent acts on (empty = every site; ignored for owners, who act on every site).
   */
  list: consoleProcedure.query(async ({ ctx }) => {
    const rows = await ctx.services.db.operator.findMany({ select: LIST_SELECT, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
    return rows.map(toItem);
  }),

  /**
   * Invites an operator: answers the invitation link, valid 7 days, shown this once (only
   * its token's hash is stored). An email whose invitation is pending gets a new link.
   */
  invite: ownerProcedure
    .input(z.strictObject({ email: operatorEmail, name: operatorName, role: z.enum(['owner', 'agent']) }))
    .mutation(async ({ ctx, input }) => {
      const { id, token } = await inviteOperator(ctx.services.db, input);
      const row = await ctx.services.db.operator.findUniqueOrThrow({ where: { id }, select: LIST_SELECT });
      return { operator: toItem(row), inviteUrl: `${consoleBaseUrl(ctx)}admin/#/invite/${token}` };
    }),

  /** Removes an operator and signs them out everywhere; not yourself (`remove_self`), never the last owner (`last_owner`). */
  remove: ownerProcedure.input(z.strictObject({ operatorId: uuid })).mutation(async ({ ctx, input }) => {
    const removed = await removeOperator(ctx.services.db, { operatorId: input.operatorId, by: ctx.staff.operatorId });
    if (!removed) throw notFound('operator');
    return { removed: true as const };
  }),

  /**
   * Sets the sites an agent acts on (empty = every site); the agent's next request uses them.
   * Unknown site ids are refused (BAD_REQUEST `unknown_site`). An owner acts on every site
   * whatever is stored, so owners are refused (BAD_REQUEST `owner_sites`) rather than silently ignored.
   */
  setSites: ownerProcedure
    .input(z.strictObject({ operatorId: uuid, siteIds: z.array(uuid).max(SITES_MAX) }))
    .mutation(async ({ ctx, input }) => {
      const { db } = ctx.services;
      const siteIds = [...new Set(input.siteIds.map((id) => id.toLowerCase()))];
      const target = await db.operator.findUnique({ where: { id: input.operatorId }, select: { role: true } });
      if (!target) throw notFound('operator');
      if (target.role === 'owner') throw refuse('BAD_REQUEST', 'owner_sites', 'Owners act on every site: only an agent’s sites can be set.');
      if ((await db.site.count({ where: { id: { in: siteIds } } })) !== siteIds.length) {
        throw refuse('BAD_REQUEST', 'unknown_site', 'One of these sites does not exist.');
      }
      const row = await db.operator.update({ where: { id: input.operatorId }, data: { siteIds }, select: LIST_SELECT });
      return toItem(row);
    }),
});
