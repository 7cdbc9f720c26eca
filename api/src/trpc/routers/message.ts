import { z } from 'zod';
import { sendMessage } from '../../conversations/send-message.ts';
import { retryFailed } from '../../conversations/retry.ts';
import { limitSends } from '../send-limits.ts';
import { router, signedVisitorProcedure, visitorProcedure } from '../trpc.ts';
import { notFound } from '../../errors/refusal.ts';
import { clientMessageId, messageContent, uuid } from '../../inputs/fields.ts';

export const messageRouter = router({
  /**
   * Sends a message. It is durable when this returns; the reply follows as events. Retrying
   * with the same `clientMessageId` returns the same row. `answersRequestId` (the open
   * question's `inputRequest.id`) makes it the answer to that question. Over the visitor's
   * send limits: 429 with `Retry-After` (nothing stored; send it again later).
   */
  send: signedVisitorProcedure
    .use(limitSends)
    .input(z.strictObject({ conversationId: uuid, clientMessageId, content: messageContent, answersRequestId: uuid.optional() }))
    .mutation(({ ctx, input }) => sendMessage(ctx.services, { visitorId: ctx.visitor.visitorId, ...input })),

  /** Asks again for the reply that failed; its messages are answered in the next run. */
  retry: visitorProcedure.input(z.strictObject({ conversationId: uuid })).mutation(async ({ ctx, input }) => {
    const requeued = await retryFailed(ctx.services, { visitorId: ctx.visitor.visitorId, conversationId: input.conversationId });
    if (requeued === null) throw notFound('conversation');
    return { requeued };
  }),
});
