import { z } from 'zod';
import { visitorProfile } from '../../../console/visitors/profile.ts';
import { notFound } from '../../../errors/refusal.ts';
import { uuid } from '../../../inputs/fields.ts';
import { consoleProcedure } from '../../console-procedure.ts';
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
});
