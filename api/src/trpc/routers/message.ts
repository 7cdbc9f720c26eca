import { z } from 'zod';
import { sendMessage } from '../../conversations/send-message.ts';
import { retryFailed } from '../../conversations/retry.ts';
import { noteTyping } from '../../conversations/note-typing.ts';
import { continueReply } from '../../conversations/continue-reply.ts';
import { limitSends } from '../send-limits.ts';
import { router, signedVisitorProcedure, visitorProcedure } from '../trpc.ts';
import { notFound } from '../../errors/refusal.ts';
import { attachmentIds, clientMessageId, messageText, uuid } from '../../inputs/fields.ts';

export const messageRouter = router({
  /**
   * Sends a message. It is durable when this returns; the reply follows as events. Retrying
   * with the same `clientMessageId` returns the same row. `answersRequestId` (the open
   * question's `inputRequest.id`) makes it the answer to that question. Over the visitor's
   * send limits: 429 with `Retry-After` (nothing stored; send it again later). `attachmentIds`:
   * files uploaded with `POST /files` and not sent yet (the words may then be empty); one that
   * is not this visitor's unsent upload refuses the send, BAD_REQUEST `attachment_unavailable`.
   */
  send: signedVisitorProcedure
    .use(limitSends)
    .input(
      z
        .strictObject({
          conversationId: uuid,
          clientMessageId,
          content: messageText,
          answersRequestId: uuid.optional(),
          attachmentIds: attachmentIds.optional(),
        })
        .refine((i) => i.content.trim().length > 0 || (i.attachmentIds?.length ?? 0) > 0, {
          message: 'must not be empty',
          path: ['content'],
        }),
    )
    .mutation(async ({ ctx, input }) => {
      const files = input.attachmentIds?.length ? await ctx.services.sites.byId(ctx.visitor.siteId) : null;
      return sendMessage(ctx.services, {
        visitorId: ctx.visitor.visitorId,
        ...input,
        ...(files && { attachmentMessageMaxBytes: files.attachmentMessageMaxBytes }),
      });
    }),

  /**
   * The visitor is typing after their message `after` (its `clientMessageId`): while that message
   * waits for its run, the run waits for the rest of their words (up to DEBOUNCE_MS past this
   * signal, capped by MAX_WAIT_MS). Send it throttled (about once a second) and only for
   * keystrokes after a send. `held` says whether the wait moved; false changes nothing.
   */
  typing: visitorProcedure
    .input(z.strictObject({ conversationId: uuid, after: clientMessageId }))
    .mutation(async ({ ctx, input }) => ({ held: await noteTyping(ctx.services, { visitorId: ctx.visitor.visitorId, ...input }) })),

  /**
   * Asks for the rest of a reply the model cut short (`MessageView.cutShort`, and nothing after
   * it): answers the stored request (a `user` message with provenance `continue` and no words,
   * `pending`); the rest arrives as the next reply. CONFLICT `nothing_to_continue` for any other
   * message. Idempotent on `clientMessageId`; counts against the send limits.
   */
  continue: signedVisitorProcedure
    .use(limitSends)
    .input(z.strictObject({ conversationId: uuid, messageId: uuid, clientMessageId }))
    .mutation(({ ctx, input }) => continueReply(ctx.services, { visitorId: ctx.visitor.visitorId, ...input })),

  /** Asks again for the reply that failed; its messages are answered in the next run. */
  retry: visitorProcedure.input(z.strictObject({ conversationId: uuid })).mutation(async ({ ctx, input }) => {
    const requeued = await retryFailed(ctx.services, { visitorId: ctx.visitor.visitorId, conversationId: input.conversationId });
    if (requeued === null) throw notFound('conversation');
    return { requeued };
  }),
});
