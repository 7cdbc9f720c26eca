import { tracked } from '@trpc/server';
import { z } from 'zod';
import { conversationChanges } from '../../../console/conversations/changes.ts';
import { findOperatorSession } from '../../../operators/operator-sessions.ts';
import { decodeCursor } from '../../../console/conversations/cursor.ts';
import { conversationItemsById } from '../../../console/conversations/items-by-id.ts';
import { LIST_FILTERS } from '../../../console/conversations/list-filter.ts';
import { listConversationItems } from '../../../console/conversations/list-query.ts';
import { markReadForOperator } from '../../../console/conversations/read-marker.ts';
import { loadTranscript } from '../../../console/conversations/transcript.ts';
import { renameConversation } from '../../../conversations/rename.ts';
import { retryFailed } from '../../../conversations/retry.ts';
import { requestRetitle } from '../../../titles/request-title.ts';
import { consoleProcedure } from '../../console-procedure.ts';
import { conversationTitle, eventId, timestamp, uuid } from '../../inputs.ts';
import { refuse } from '../../refusal.ts';
import { notFound, router } from '../../trpc.ts';

const conversationInput = z.strictObject({ conversationId: uuid });

/** Free text of a search box: bounded, no control characters (PostgreSQL text refuses NUL). */
const searchText = z
  .string()
  .max(200, 'at most 200 characters')
  .refine((s) => !/[\u0000-\u001F\u007F]/.test(s), 'must not contain control characters');

/**
 * console.conversations: every site's conversations for the signed-in operator (one team sees
 * all sites; agents and owners alike): the list, its live changes, transcripts, the operator's
 * own read markers, and the actions on a conversation (retry, rename/pin, retitle).
 */
export const conversationsRouter = router({
  /**
   * A page of conversations, newest activity first, with the cursor of the next page. The
   * attention state and `unread` filter are for THIS operator (their read markers).
   */
  list: consoleProcedure
    .input(
      z.strictObject({
        siteId: uuid.optional(),
        filter: z.enum(LIST_FILTERS).default('all'),
        search: searchText.optional(),
        cursor: z.string().max(200).optional(),
        limit: z.number().int().min(1).max(100).default(50),
      }),
    )
    .query(({ ctx, input }) => {
      const cursor = input.cursor === undefined ? undefined : decodeCursor(input.cursor);
      if (cursor === null) throw refuse('BAD_REQUEST', 'bad_cursor', 'This cursor was not made by this list: start from the first page.');
      return listConversationItems(ctx.services.db, { ...input, cursor, operatorId: ctx.staff.operatorId });
    }),

  /**
   * Every conversation (of `siteId`, or of every site) that is created or changes, as it
   * happens, over SSE: `{ type: 'upsert', item }` tracked with an event-log position, so a
   * reconnect (`lastEventId`) re-sends what changed meanwhile.
   */
  changes: consoleProcedure
    .input(z.strictObject({ siteId: uuid.optional(), lastEventId: eventId.nullish() }).optional())
    .subscription(async function* ({ ctx, input, signal }) {
      const abort = signal ?? new AbortController().signal;
      const token = ctx.consoleToken ?? '';
      const signedIn = async () => (await findOperatorSession(ctx.services.db, token))?.operatorId === ctx.staff.operatorId;
      const q = { operatorId: ctx.staff.operatorId, siteId: input?.siteId, lastEventId: input?.lastEventId ?? null, signedIn };
      for await (const { id, change } of conversationChanges(ctx.services, q, abort)) yield tracked(id, change);
    }),

  /** One conversation whole: messages, runs, questions, todos, title history and title checks. */
  transcript: consoleProcedure.input(conversationInput).query(async ({ ctx, input }) => {
    const transcript = await loadTranscript(ctx.services.db, { operatorId: ctx.staff.operatorId, conversationId: input.conversationId });
    if (!transcript) throw notFound('conversation');
    return transcript;
  }),

  /**
   * Marks read for THIS operator only, up to the newest reply (or `lastAssistantAt`, the reply
   * the console showed); never the visitor's read state nor another operator's.
   */
  markRead: consoleProcedure.input(z.strictObject({ conversationId: uuid, lastAssistantAt: timestamp.optional() })).mutation(async ({ ctx, input }) => {
    const item = await markReadForOperator(ctx.services, {
      operatorId: ctx.staff.operatorId,
      conversationId: input.conversationId,
      seenAssistantAt: input.lastAssistantAt === undefined ? undefined : new Date(input.lastAssistantAt),
    });
    if (!item) throw notFound('conversation');
    return item;
  }),

  /** Retries a failed reply: the same path as the visitor's retry. `requeued` 0: nothing had failed. */
  retry: consoleProcedure.input(conversationInput).mutation(async ({ ctx, input }) => {
    const conv = await ctx.services.db.conversation.findUnique({ where: { id: input.conversationId }, select: { visitorId: true } });
    if (!conv) throw notFound('conversation');
    const requeued = await retryFailed(ctx.services, { visitorId: conv.visitorId, conversationId: input.conversationId });
    return { requeued: requeued ?? 0 };
  }),

  /** Renames: `manual`, or `fixed` with `pin` (the operator's title stays). Either way no generated title replaces it. */
  rename: consoleProcedure
    .input(z.strictObject({ conversationId: uuid, title: conversationTitle, pin: z.boolean().default(false) }))
    .mutation(async ({ ctx, input }) => {
      const { db } = ctx.services;
      const conv = await db.conversation.findUnique({ where: { id: input.conversationId }, select: { siteId: true } });
      if (!conv) throw notFound('conversation');
      const renamed = await renameConversation(ctx.services, { ...input, by: { operatorSiteId: conv.siteId } });
      if (!renamed) throw notFound('conversation');
      const [item] = await conversationItemsById(db, { operatorId: ctx.staff.operatorId, ids: [input.conversationId] });
      if (!item) throw notFound('conversation');
      return item;
    }),

  /**
   * Asks the title pass to look again now. A manual or fixed title is refused (CONFLICT
   * `title_not_replaceable`): rename it instead.
   */
  retitle: consoleProcedure.input(conversationInput).mutation(async ({ ctx, input }) => {
    const { db } = ctx.services;
    if (await requestRetitle(db, input.conversationId)) return { requested: true as const };
    const conv = await db.conversation.findUnique({ where: { id: input.conversationId }, select: { id: true } });
    if (!conv) throw notFound('conversation');
    throw refuse('CONFLICT', 'title_not_replaceable', 'This title was set by hand (or there is none yet): rename it instead.');
  }),
});
