import { tracked } from '@trpc/server';
import { z } from 'zod';
import { conversationChanges } from '../../../console/conversations/changes.ts';
import { findOperatorSession } from '../../../operators/operator-sessions.ts';
import { decodeCursor } from '../../../console/conversations/cursor.ts';
import { conversationItemsById } from '../../../console/conversations/items-by-id.ts';
import { LIST_FILTERS } from '../../../console/conversations/list-filter.ts';
import { listConversationItems } from '../../../console/conversations/list-query.ts';
import { markReadForOperator } from '../../../console/conversations/read-marker.ts';
import { conversationInScope } from '../../../console/conversations/in-scope.ts';
import { loadTranscript, loadTranscriptHead, type TranscriptHead } from '../../../console/conversations/transcript.ts';
import { renameConversation } from '../../../conversations/rename.ts';
import { retryFailed } from '../../../conversations/retry.ts';
import { handBack } from '../../../handoff/hand-back.ts';
import { operatorReply } from '../../../handoff/operator-reply.ts';
import { takeOver, type ActingOperator } from '../../../handoff/take-over.ts';
import type { SiteScope } from '../../../operators/site-access.ts';
import type { DbLike } from '../../../db/types.ts';
import { requestRetitle } from '../../../titles/request-title.ts';
import { assignConversation } from '../../../inbox/assign.ts';
import { addNote, NOTE_MAX } from '../../../inbox/notes.ts';
import { setConversationStatus, statusChange } from '../../../inbox/set-status.ts';
import { consoleProcedure } from '../../console-procedure.ts';
import { attachmentIds, clientMessageId, conversationTitle, eventId, messageText, noNul, timestamp, uuid } from '../../../inputs/fields.ts';
import { notFound, refuse } from '../../../errors/refusal.ts';
import { router } from '../../trpc.ts';

const conversationInput = z.strictObject({ conversationId: uuid });

/** The conversation the input names, within the operator's sites, or NOT_FOUND. */
async function inScope(ctx: { services: { db: DbLike }; sites: SiteScope }, conversationId: string) {
  const conv = await conversationInScope(ctx.services.db, { conversationId, sites: ctx.sites });
  if (!conv) throw notFound('conversation');
  return conv;
}

const actingOperator = (staff: { operatorId: string; name: string; role: 'owner' | 'agent' }): ActingOperator => ({
  id: staff.operatorId,
  name: staff.name,
  role: staff.role,
});

/** Free text of a search box: bounded, no control characters (PostgreSQL text refuses NUL). */
const searchText = z
  .string()
  .max(200, 'at most 200 characters')
  .refine((s) => !/[\u0000-\u001F\u007F]/.test(s), 'must not contain control characters');

/**
 * console.conversations: the conversations of the sites the signed-in operator may act on
 * (`ctx.sites`: owners every site; agents theirs; outside it a conversation is NOT_FOUND, as
 * if it did not exist): the list, its live
 * changes, transcripts, the operator's own read markers, the actions on a conversation (retry,
 * rename/pin, retitle), and taking a conversation over, replying as a person and handing it back.
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
      if (cursor === null) throw refuse('bad_request', 'bad_cursor', 'This cursor was not made by this list: start from the first page.');
      return listConversationItems(ctx.services.db, { ...input, cursor, operatorId: ctx.staff.operatorId, sites: ctx.sites });
    }),

  /**
   * Every conversation (of `siteId`, or of every site the operator may act on: read again
   * with the session before each read; a revoked session or a change of the operator's sites
   * ends the stream within a second, see conversationChanges) that
   * is created or changes, as it happens, over SSE: `{ type: 'upsert', item }` (or `{ type: 'removed', conversationId }` once it is deleted) tracked with an event-log position, so a
   * reconnect (`lastEventId`) re-sends what changed meanwhile.
   */
  changes: consoleProcedure
    .input(z.strictObject({ siteId: uuid.optional(), lastEventId: eventId.nullish() }).optional())
    .subscription(async function* ({ ctx, input, signal }) {
      const abort = signal ?? new AbortController().signal;
      const token = ctx.consoleToken ?? '';
      const session = async () => {
        const staff = await findOperatorSession(ctx.services.db, token);
        return staff?.operatorId === ctx.staff.operatorId ? staff : null;
      };
      const q = {
        operatorId: ctx.staff.operatorId,
        siteId: input?.siteId,
        session,
        sites: ctx.sites,
        lastEventId: input?.lastEventId ?? null,
      };
      for await (const { id, change } of conversationChanges(ctx.services, q, abort)) yield tracked(id, change);
    }),

  /**
   * One conversation whole: messages (with provenance labels and notices), runs, questions,
   * todos, title history and title checks, who holds it and since when it waits for a person.
   * A private conversation's words are withheld (`redacted` messages with content '').
   */
  transcript: consoleProcedure.input(conversationInput).query(async ({ ctx, input }) => {
    const transcript = await loadTranscript(ctx.services.db, {
      operatorId: ctx.staff.operatorId,
      conversationId: input.conversationId,
      sites: ctx.sites,
    });
    if (!transcript) throw notFound('conversation');
    return transcript;
  }),

  /**
   * Marks read for THIS operator only, up to the newest reply (or `lastAssistantAt`, the reply
   * the console showed); never the visitor's read state nor another operator's.
   */
  markRead: consoleProcedure
    .input(z.strictObject({ conversationId: uuid, lastAssistantAt: timestamp.optional() }))
    .mutation(async ({ ctx, input }) => {
      // the marker's own statement is scoped: outside the sites it writes nothing and reads no item
      const item = await markReadForOperator(ctx.services, {
        operatorId: ctx.staff.operatorId,
        conversationId: input.conversationId,
        sites: ctx.sites,
        seenAssistantAt: input.lastAssistantAt === undefined ? undefined : new Date(input.lastAssistantAt),
      });
      if (!item) throw notFound('conversation');
      return item;
    }),

  /** Retries a failed reply: the same path as the visitor's retry. `requeued` 0: nothing had failed. */
  retry: consoleProcedure.input(conversationInput).mutation(async ({ ctx, input }) => {
    const conv = await inScope(ctx, input.conversationId);
    const requeued = await retryFailed(ctx.services, { visitorId: conv.visitorId, conversationId: input.conversationId });
    return { requeued: requeued ?? 0 };
  }),

  /** Renames: `manual`, or `fixed` with `pin` (the operator's title stays). Either way no generated title replaces it. */
  rename: consoleProcedure
    .input(z.strictObject({ conversationId: uuid, title: conversationTitle, pin: z.boolean().default(false) }))
    .mutation(async ({ ctx, input }) => {
      const conv = await inScope(ctx, input.conversationId);
      const renamed = await renameConversation(ctx.services, { ...input, by: { operatorSiteId: conv.siteId } });
      if (!renamed) throw notFound('conversation');
      return item(ctx, input.conversationId);
    }),

  /**
   * Asks the title pass to look again now. A manual or fixed title is refused (CONFLICT
   * `title_not_replaceable`): rename it instead; a private conversation too (CONFLICT `private`:
   * its words never reach the title model).
   */
  retitle: consoleProcedure.input(conversationInput).mutation(async ({ ctx, input }) => {
    const conv = await inScope(ctx, input.conversationId);
    if (conv.private) throw refuse('conflict', 'private', 'The visitor marked this conversation private: no model titles it.');
    if (await requestRetitle(ctx.services.db, input.conversationId)) return { requested: true as const };
    throw refuse('conflict', 'title_not_replaceable', 'This title was set by hand (or there is none yet): rename it instead.');
  }),

  /**
   * Takes the conversation over: no run is claimed for it from now on (a run already streaming
   * finishes; the operator writes after it), the visitor sees "Ana joined", and it no longer
   * waits for a person. Idempotent for the holder. CONFLICT `held_by_other` (another operator
   * holds it, named in the message); FORBIDDEN `private` (its words are hidden from the console).
   */
  takeOver: consoleProcedure.input(conversationInput).mutation(async ({ ctx, input }): Promise<TranscriptHead> => {
    await takeOver(ctx.services, { operator: actingOperator(ctx.staff), conversationId: input.conversationId, sites: ctx.sites });
    return head(ctx, input.conversationId);
  }),

  /**
   * The holder writes to the visitor (labelled with their name; unread moves as for any reply),
   * answering the visitor messages that waited before it, with any files this operator uploaded
   * (`attachmentIds`; the words may then be empty). Idempotent on `clientMessageId`.
   * CONFLICT `not_holding` unless this operator holds the conversation.
   */
  reply: consoleProcedure
    .input(
      z
        .strictObject({ conversationId: uuid, text: messageText, clientMessageId, attachmentIds: attachmentIds.optional() })
        .refine((i) => i.text.trim().length > 0 || (i.attachmentIds?.length ?? 0) > 0, { message: 'must not be empty', path: ['text'] }),
    )
    .mutation(({ ctx, input }) => operatorReply(ctx.services, { ...input, operator: actingOperator(ctx.staff), sites: ctx.sites })),

  /**
   * Gives the conversation to an operator of its site (`assigneeId`), or to nobody (null): the
   * team's "Mine" and "Unassigned". BAD_REQUEST `not_assignable` for an operator who does not
   * answer this site's conversations.
   */
  assign: consoleProcedure.input(z.strictObject({ conversationId: uuid, assigneeId: uuid.nullable() })).mutation(async ({ ctx, input }) => {
    if (!(await assignConversation(ctx.services, { ...input, sites: ctx.sites }))) throw notFound('conversation');
    return item(ctx, input.conversationId);
  }),

  /** Resolves, snoozes until a time, or reopens the conversation (a visitor's message reopens it too). */
  setStatus: consoleProcedure.input(z.strictObject({ conversationId: uuid, change: statusChange })).mutation(async ({ ctx, input }) => {
    if (!(await setConversationStatus(ctx.services, { ...input, sites: ctx.sites }))) throw notFound('conversation');
    return item(ctx, input.conversationId);
  }),

  /**
   * Adds an internal note for the team: never shown to the visitor, never sent to a model,
   * never in titles or recall. Shown in the transcript with its author.
   */
  addNote: consoleProcedure
    .input(
      z.strictObject({
        conversationId: uuid,
        text: z
          .string()
          .max(NOTE_MAX, `at most ${NOTE_MAX} characters`)
          .refine((s) => s.trim().length > 0, 'must not be empty')
          .refine(noNul, 'must not contain NUL characters'),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const operator = { id: ctx.staff.operatorId, name: ctx.staff.name ?? ctx.staff.email };
      const note = await addNote(ctx.services, {
        conversationId: input.conversationId,
        operator,
        content: input.text.trim(),
        sites: ctx.sites,
      });
      if (!note) throw notFound('conversation');
      return note;
    }),

  /**
   * Hands the conversation back to the assistant ("Ana left"): the visitor messages the operator
   * did not answer are the next pending batch right away. The holder or an owner; CONFLICT
   * `not_holding` otherwise. Nobody holding it: nothing changes.
   */
  handBack: consoleProcedure.input(conversationInput).mutation(async ({ ctx, input }): Promise<TranscriptHead> => {
    await handBack(ctx.services, { operator: actingOperator(ctx.staff), conversationId: input.conversationId, sites: ctx.sites });
    return head(ctx, input.conversationId);
  }),
});

/** The transcript's head as this operator sees it after an action. */
async function head(
  ctx: { services: { db: DbLike }; staff: { operatorId: string }; sites: SiteScope },
  conversationId: string,
): Promise<TranscriptHead> {
  const found = await loadTranscriptHead(ctx.services.db, { operatorId: ctx.staff.operatorId, conversationId, sites: ctx.sites });
  if (!found) throw notFound('conversation');
  return found;
}

/** The conversation's row as this operator's list shows it after an action. */
async function item(ctx: { services: { db: DbLike }; staff: { operatorId: string }; sites: SiteScope }, conversationId: string) {
  const [found] = await conversationItemsById(ctx.services.db, {
    operatorId: ctx.staff.operatorId,
    ids: [conversationId],
    sites: ctx.sites,
  });
  if (!found) throw notFound('conversation');
  return found;
}
