import { z } from 'zod';
import { accessChanged } from '../../../operators/access-changed.ts';
import { alertSettingsChange } from '../../../operators/alert-settings.ts';
import { givenPassword, newPassword, operatorName } from '../../../operators/operator-inputs.ts';
import { changeOwnAlerts, ownAlerts } from '../../../operators/own-alerts.ts';
import { changeOwnPassword, renameSelf, signOutEverywhere } from '../../../operators/own-profile.ts';
import { clearConsoleCookie } from '../../console-cookie.ts';
import { consoleProcedure } from '../../console-procedure.ts';
import { router } from '../../trpc.ts';

/**
 * console.profile: the signed-in operator's own name, password, sessions and alert settings, whatever their role.
 * Every other session a change ends is told at once (its open streams close, access-changed.ts).
 */
export const profileRouter = router({
  /** Sets the operator's own name. */
  rename: consoleProcedure.input(z.strictObject({ name: operatorName })).mutation(async ({ ctx, input }) => {
    await renameSelf(ctx.services.db, ctx.staff.operatorId, input.name);
    return { name: input.name };
  }),

  /** Changes the operator's own password, given the current one; their other sessions end. */
  changePassword: consoleProcedure.input(z.strictObject({ current: givenPassword, next: newPassword })).mutation(async ({ ctx, input }) => {
    await changeOwnPassword(ctx.services.db, { operatorId: ctx.staff.operatorId, sessionId: ctx.staff.sessionId, ...input });
    await accessChanged(ctx.services.bus, [ctx.staff.operatorId]);
    return { changed: true as const };
  }),

  /** Ends every session of the operator, this browser's too. */
  signOutEverywhere: consoleProcedure.mutation(async ({ ctx }) => {
    const sessions = await signOutEverywhere(ctx.services.db, ctx.staff.operatorId);
    await accessChanged(ctx.services.bus, [ctx.staff.operatorId]);
    clearConsoleCookie(ctx);
    return { sessions };
  }),

  /** How the operator is alerted (browser notification, sound, email), and whether this server sends email. */
  alerts: consoleProcedure.query(({ ctx }) => ownAlerts(ctx.services.db, ctx.staff.operatorId, Boolean(ctx.services.config.SMTP_URL))),

  /** Changes some of the operator's own alert channels; the others stay. */
  setAlerts: consoleProcedure
    .input(alertSettingsChange)
    .mutation(({ ctx, input }) => changeOwnAlerts(ctx.services.db, ctx.staff.operatorId, input, Boolean(ctx.services.config.SMTP_URL))),
});
