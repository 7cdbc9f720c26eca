import { z } from 'zod';
import { transactWithEvents } from '../../events/append-events.ts';
import { getConversation, listConversations, loadConversationView } from '../../conversations/queries.ts';
import { markRead } from '../../conversations/mark-read.ts';
import { renameConversation } from '../../conversations/rename.ts';
import { rateConversation, rating, ratingComment } from '../../conversations/rate.ts';
import { dropTitleRequest } from '../../titles/request-title.ts';
import { router, visitorProcedure } from '../trpc.ts';
import { notFound, refuse } from '../../errors/refusal.ts';
import { conversationTitle, timestamp, uuid } from '../../inputs/fields.ts';
import { deleteOwnConversation } from '../../privacy/delete-conversation.ts';

export const conversationRouter = router({
  /**
   * Opens an empty conversation; its first message becomes the fallback title. A `title`
   * given here is `fixed`: no fallback replaces it and the title pass never touches it.
   * A visitor has at most VISITOR_MAX_CONVERSATIONS: the next is refused (429 `conversation_limit`).
   */
  create: visitorProcedure.input(z.strictObject({ title: conversationTitle.optional() }).optional()).mutation(async ({ ctx, input }) => {
    const { db, bus, config } = ctx.services;
    const { visitorId, siteId } = ctx.visitor;
    const fixed = input?.title === undefined ? {} : { title: input.title, titleSource: 'fixed' as const };
    return transactWithEvents(db, bus, async (tx, emit) => {
      // Row lock on the visitor: one visitor's creates serialize here, so the cap holds under concurrency.
      await tx.$queryRaw`SELECT 1 FROM "Visitor" WHERE id = ${visitorId}::uuid FOR NO KEY UPDATE`;
      if ((await tx.conversation.count({ where: { visitorId } })) >= config.VISITOR_MAX_CONVERSATIONS) {
        throw refuse(
          'too_many_requests',
          'conversation_limit',
          `A visitor can have at most ${config.VISITOR_MAX_CONVERSATIONS} conversations.`,
        );
      }
      const { id } = await tx.conversation.create({ data: { siteId, visitorId, ...fixed }, select: { id: true } });
      const conversation = await loadConversationView(tx, id);
      emit(visitorId, { type: 'conversation.updated', conversationId: id, conversation });
      return conversation;
    });
  }),

  /** The visitor's conversations by activity, newest first, with an event cursor to subscribe from. */
  list: visitorProcedure.query(({ ctx }) => listConversations(ctx.services.db, ctx.visitor.visitorId)),

  /** One conversation with its newest messages. */
  get: visitorProcedure.input(z.strictObject({ conversationId: uuid })).query(async ({ ctx, input }) => {
    const found = await getConversation(ctx.services.db, ctx.visitor.visitorId, input.conversationId);
    if (!found) throw notFound('conversation');
    return found;
  }),

  /**
   * Marks read up to the reply the visitor actually saw: pass the `lastAssistantAt` that was
   * displayed, never "now". The server keeps the maximum.
   */
  markRead: visitorProcedure
    .input(z.strictObject({ conversationId: uuid, lastAssistantAt: timestamp }))
    .mutation(async ({ ctx, input }) => {
      const conversation = await markRead(ctx.services, {
        visitorId: ctx.visitor.visitorId,
        conversationId: input.conversationId,
        seenAssistantAt: new Date(input.lastAssistantAt),
      });
      if (!conversation) throw notFound('conversation');
      return conversation;
    }),

  /**
   * Renames a conversation. The visitor's title always wins: it is `manual` from now on and
   * no generated title replaces it, even one being generated right now.
   */
  rename: visitorProcedure.input(z.strictObject({ conversationId: uuid, title: conversationTitle })).mutation(async ({ ctx, input }) => {
    const conversation = await renameConversation(ctx.services, { ...input, by: { visitorId: ctx.visitor.visitorId } });
    if (!conversation) throw notFound('conversation');
    return conversation;
  }),

  /**
   * Marks the visitor's own conversation private, or not. A private conversation is never
   * recalled in the visitor's other conversations, never sent to the title model (a pending
   * title request is dropped at once) and the console shows its metadata but not its words.
   */
  setPrivate: visitorProcedure.input(z.strictObject({ conversationId: uuid, private: z.boolean() })).mutation(async ({ ctx, input }) => {
    const { db, bus } = ctx.services;
    const { visitorId } = ctx.visitor;
    return transactWithEvents(db, bus, async (tx, emit) => {
      const n = await tx.$executeRaw`
          UPDATE "Conversation" SET private = ${input.private}
          WHERE id = ${input.conversationId}::uuid AND "visitorId" = ${visitorId}::uuid`;
      if (n === 0) throw notFound('conversation');
      if (input.private) await dropTitleRequest(tx, input.conversationId);
      const conversation = await loadConversationView(tx, input.conversationId);
      emit(visitorId, { type: 'conversation.updated', conversationId: input.conversationId, conversation });
      return conversation;
    });
  }),

  /**
   * Deletes the visitor's own conversation for good, with its messages, files and everything
   * else it left behind; their other tabs get `conversation.deleted`. NOT_FOUND when it is not
   * theirs or already gone.
   */
  delete: visitorProcedure.input(z.strictObject({ conversationId: uuid })).mutation(async ({ ctx, input }) => {
    if (!(await deleteOwnConversation(ctx.services, { visitorId: ctx.visitor.visitorId, conversationId: input.conversationId }))) {
      throw notFound('conversation');
    }
    return { deleted: true as const };
  }),

  /**
   * "Did this help?": the visitor rates their own conversation once a person from the team
   * resolved it (1 helpful, -1 not), with an optional comment of at most 1000 characters; they
   * may change it while it stays resolved. CONFLICT `not_resolved` / `no_person` otherwise.
   */
  rate: visitorProcedure
    .input(z.strictObject({ conversationId: uuid, rating, comment: ratingComment.optional() }))
    .mutation(({ ctx, input }) => rateConversation(ctx.services, { ...input, visitorId: ctx.visitor.visitorId })),
});
