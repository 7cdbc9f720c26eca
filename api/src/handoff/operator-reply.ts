import type { Services } from '../services.ts';
import type { Tx } from '../db/types.ts';
import { transactWithEvents } from '../events/append-events.ts';
import { loadConversationView } from '../conversations/queries.ts';
import { speakToVisitor } from '../conversations/speak-to-visitor.ts';
import { messageSelect, toMessageView, type MessageRow } from '../conversations/views.ts';
import type { SiteScope } from '../operators/site-access.ts';
import { refuse } from '../errors/refusal.ts';
import { bindAttachments } from '../attachments/bind-attachments.ts';
import { toAttachmentView, type AttachmentView } from '../attachments/attachment-view.ts';
import type { RawSql } from '../db/raw-sql.ts';
import { lockConversation } from './held-conversation.ts';
import type { ActingOperator } from './take-over.ts';

/** An operator's message as the transcript lists it. */
export interface OperatorMessage {
  id: string;
  role: 'operator';
  content: string;
  redacted: false;
  provenance: 'operator';
  provenanceLabel: string | null;
  state: null;
  error: null;
  createdAt: string;
  runId: null;
  /** files sent with it */
  attachments: AttachmentView[];
}

/**
 * The holder writes to the visitor. The message is stored through THE unread write
 * (`speakToVisitor`: role `operator`, provenance `operator` labelled with the operator's name),
 * so `lastAssistantAt`, the excerpt and unread move exactly as for an AI reply: the visitor's
 * badges, inbox and host-page count all move. The visitor messages still waiting (pending, or
 * failed) from before it are answered by the person now (`answered`, no run): the next run
 * after hand back sees them as answered history, not as its batch. Messages claimed by a run
 * still streaming are left to that run.
 *
 * Idempotent on (conversationId, clientMessageId): a retried send answers the stored message
 * (even after hand back). Only the holder may write: CONFLICT `not_holding` otherwise.
 */
export async function operatorReply(
  s: Pick<Services, 'db' | 'bus'>,
  q: {
    operator: ActingOperator;
    conversationId: string;
    text: string;
    clientMessageId: string;
    sites: SiteScope;
    /** files this operator uploaded to this conversation and has not sent yet */
    attachmentIds?: readonly string[];
  },
): Promise<OperatorMessage> {
  return transactWithEvents(s.db, s.bus, async (tx, emit) => {
    const conv = await lockConversation(tx, q);
    const stored = await tx.message.findUnique({
      where: { conversationId_clientMessageId: { conversationId: conv.id, clientMessageId: q.clientMessageId } },
      select: { ...messageSelect, operatorId: true },
    });
    if (stored) {
      if (stored.role === 'operator' && stored.operatorId === q.operator.id) return asOperatorMessage(stored);
      throw refuse(
        'conflict',
        'client_message_id_taken',
        'This clientMessageId names another message of this conversation: send with a new one.',
      );
    }
    if (conv.heldById !== q.operator.id) throw refuse('conflict', 'not_holding', 'Take this conversation over before you reply.');

    // the conversation's row lock keeps a retry out until this commits
    const message = await speakToVisitor(tx, {
      conversationId: conv.id,
      visitorId: conv.visitorId,
      role: 'operator',
      content: q.text,
      provenance: 'operator',
      provenanceLabel: q.operator.name,
      operatorId: q.operator.id,
      clientMessageId: q.clientMessageId,
    });
    const attachments = q.attachmentIds?.length
      ? await bindAttachments(rawOf(tx), {
          conversationId: conv.id,
          messageId: message.id,
          ids: q.attachmentIds,
          sender: { operatorId: q.operator.id },
          // the per-message cap is what the site lets its visitors send; operators have the deployment's ceiling per file only
          messageMaxBytes: Number.POSITIVE_INFINITY,
        })
      : [];
    await answerEarlier(tx, conv.id, message.seq);
    await readOwnWords(tx, { operatorId: q.operator.id, conversationId: conv.id, at: message.createdAt });
    emit(conv.visitorId, { type: 'message.created', conversationId: conv.id, message: { ...toMessageView(message), attachments } });
    emit(conv.visitorId, { type: 'conversation.updated', conversationId: conv.id, conversation: await loadConversationView(tx, conv.id) });
    return { ...asOperatorMessage(message), attachments };
  });
}

/** The visitor messages waiting before the operator's message are answered by the person (the WHERE is the rule). */
function answerEarlier(tx: Tx, conversationId: string, seq: bigint): Promise<number> {
  return tx.$executeRaw`
    UPDATE "Message" SET state = 'answered', "runId" = NULL
    WHERE "conversationId" = ${conversationId}::uuid AND role = 'user' AND state IN ('pending', 'failed') AND seq < ${seq}`;
}

/**
 * The writer has read what they wrote: their own read marker moves up to their message, so the
 * conversation does not turn unviewed in their console for their own words (every other
 * operator's marker, and the visitor's, stay: for them it is a new reply).
 */
function readOwnWords(tx: Tx, r: { operatorId: string; conversationId: string; at: Date }): Promise<number> {
  return tx.$executeRaw`
    INSERT INTO "OperatorRead" ("operatorId", "conversationId", "lastReadAt") VALUES (${r.operatorId}::uuid, ${r.conversationId}::uuid, ${r.at})
    ON CONFLICT ("operatorId", "conversationId") DO UPDATE SET "lastReadAt" = EXCLUDED."lastReadAt"
      WHERE "OperatorRead"."lastReadAt" < EXCLUDED."lastReadAt"`;
}

function asOperatorMessage(m: MessageRow): OperatorMessage {
  return {
    id: m.id,
    role: 'operator',
    content: m.content,
    redacted: false,
    provenance: 'operator',
    provenanceLabel: m.provenanceLabel,
    state: null,
    error: null,
    createdAt: m.createdAt.toISOString(),
    runId: null,
    attachments: (m.attachments ?? []).map((a) => toAttachmentView(a)),
  };
}

/** The Prisma transaction as the raw statements' interface (bind-attachments.ts is shared with the raw send path). */
const rawOf = (tx: Tx): RawSql => ({
  rows: (statement) => tx.$queryRaw(statement),
  count: (statement) => tx.$executeRaw(statement),
});
