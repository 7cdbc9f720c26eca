import { z } from 'zod';
import { visitorProfile } from '../../../console/visitors/profile.ts';
import { notFound } from '../../../errors/refusal.ts';
import { uuid } from '../../../inputs/fields.ts';
import { consoleProcedure, ownerProcedure } from '../../console-procedure.ts';
import { erasurePreview, erasureSubjectOf } from '../../../console/visitors/erasure.ts';
import { eraseVisitorData } from '../../../privacy/erase-visitor.ts';
import { router } from '../../trpc.ts';

/**
 * console.visitors: who is on the other side of a conversation, within the operator's sites
 * (outside them NOT_FOUND, exactly as for a conversation that does not exist).
 */
export const visitorsRouter = router({
  /**
   * The profile of a conversation's visitor: the page they are on (sites that share visitor
   * pages), where they came from, their browser, language and time zone, what the host signed
   * about them (identified users), and their other conversations on the site (newest first,
   * at most 20; a private one without its title).
   */
  profile: consoleProcedure.input(z.strictObject({ conversationId: uuid })).query(async ({ ctx, input }) => {
    const profile = await visitorProfile(ctx.services.db, { conversationId: input.conversationId, sites: ctx.sites });
    if (!profile) throw notFound('conversation');
    return profile;
  }),

  /**
   * What "Delete visitor data" would remove (the confirmation's figures): the conversations,
   * messages and files of the conversation's visitor — of every browser the host's user was
   * identified in, for an identified visitor.
   */
  erasure: consoleProcedure.input(z.strictObject({ conversationId: uuid })).query(async ({ ctx, input }) => {
    const preview = await erasurePreview(ctx.services.db, { conversationId: input.conversationId, sites: ctx.sites });
    if (!preview) throw notFound('conversation');
    return preview;
  }),

  /**
   * Erases everything Heed holds about the conversation's visitor (owners only): see
   * privacy/erase-visitor.ts. The live lists drop their conversations; one content-free record
   * of the erasure stays.
   */
  erase: ownerProcedure.input(z.strictObject({ conversationId: uuid })).mutation(async ({ ctx, input }) => {
    const found = await erasureSubjectOf(ctx.services.db, { conversationId: input.conversationId, sites: ctx.sites });
    if (!found) throw notFound('conversation');
    return eraseVisitorData(ctx.services, {
      siteId: found.siteId,
      subject: found.subject,
      actor: { kind: 'operator', operatorId: ctx.staff.operatorId },
    });
  }),
});
