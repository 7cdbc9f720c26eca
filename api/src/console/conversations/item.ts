import type { Attention } from '../../shared/attention.ts';
import { toConversationView } from '../../conversations/views.ts';
import type { ItemRow } from './item-row.ts';

/** A conversation as the console lists it; the same four states as the widget, for THIS operator. */
export interface ConversationItem {
  id: string;
  siteId: string;
  siteName: string;
  /** null for a private conversation (its title is the visitor's words) */
  title: string | null;
  titleSource: 'first_message' | 'generated' | 'manual' | 'fixed' | null;
  /** live > input needed > unviewed > default; unviewed and input needed against this operator's read marker */
  attention: Attention;
  /** the latest reply failed and nothing waits for a new one (`retry` asks again) */
  failed: boolean;
  /** first line of the latest reply or failure; null for a private conversation */
  excerpt: string | null;
  lastAssistantAt: string | null;
  updatedAt: string;
  createdAt: string;
  /** `externalId` and `name` only for visitors the host identified */
  visitor: { id: string; externalId: string | null; name: string | null };
  messageCount: number;
  /** files sent in it, by the visitor and the team (the row's paperclip) */
  attachmentCount: number;
  /** the assistant asked for a person and nobody took it over yet (the `waiting` filter lists these, oldest wait first) */
  waitingForPerson: boolean;
  /** when it started waiting for a person */
  waitingSince: string | null;
  /** the operator who took it over (no run is claimed while held), or null */
  heldBy: { id: string; name: string } | null;
  /** the visitor marked it private: metadata only, no words (title and excerpt are null) */
  private: boolean;
  /** whose it is in the team's inbox, or null (unassigned) */
  assignee: { id: string; name: string } | null;
  /** the team's status; a snooze that has run out reads `open` */
  status: 'open' | 'resolved' | 'snoozed';
  /** until when it is snoozed (null unless `status` is `snoozed`) */
  snoozedUntil: string | null;
  /** when the visitor last wrote; null: never */
  lastVisitorAt: string | null;
}

/**
 * Maps a row through the widget's own derivation (`toConversationView`: live, failed and the
 * attention state from `shared/attention.ts`), with the operator's read marker standing in for
 * the visitor's: an operator sees "unviewed" for replies THEY have not read, whatever the visitor did.
 * A private conversation keeps its metadata but loses its words (title, excerpt).
 */
export function toConversationItem(row: ItemRow): ConversationItem {
  const view = toConversationView(
    {
      id: row.id,
      title: row.title,
      titleSource: row.titleSource,
      excerpt: row.excerpt,
      lastAssistantAt: row.lastAssistantAt,
      lastReadAt: row.operatorReadAt,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
      runs: row.runId ? [{ id: row.runId, status: row.runStatus!, leaseUntil: row.runLeaseUntil! }] : [],
      inputRequest:
        row.requestId === null
          ? null
          : {
              conversationId: row.id,
              id: row.requestId,
              question: row.requestQuestion!,
              choices: row.requestChoices ?? [],
              allowFreeText: row.requestAllowFreeText ?? true,
              createdAt: row.requestCreatedAt!,
            },
      todos: [],
      awaitingReply: row.awaitingReply,
      waitingSince: row.waitingSince,
      private: row.private,
      heldBy: row.heldByName === null ? null : { name: row.heldByName },
    },
    row.dbNow,
  );
  return {
    id: row.id,
    siteId: row.siteId,
    siteName: row.siteName,
    title: row.private ? null : row.title,
    titleSource: row.titleSource,
    attention: view.attention,
    failed: view.failed,
    excerpt: row.private ? null : row.excerpt,
    lastAssistantAt: view.lastAssistantAt,
    updatedAt: view.updatedAt,
    createdAt: view.createdAt,
    visitor: { id: row.visitorId, externalId: row.visitorExternalId, name: row.visitorName },
    messageCount: row.messageCount,
    attachmentCount: row.attachmentCount,
    waitingForPerson: view.waitingForPerson,
    waitingSince: row.waitingSince?.toISOString() ?? null,
    heldBy: row.heldById === null ? null : { id: row.heldById, name: row.heldByName ?? '' },
    private: row.private,
    assignee: row.assigneeId === null ? null : { id: row.assigneeId, name: row.assigneeName ?? '' },
    ...teamStatus(row),
    lastVisitorAt: row.lastVisitorAt?.toISOString() ?? null,
  };
}

/** The status as every surface reads it: a snooze past its time is open again, without a write. */
function teamStatus(row: Pick<ItemRow, 'status' | 'snoozedUntil' | 'dbNow'>): Pick<ConversationItem, 'status' | 'snoozedUntil'> {
  if (row.status !== 'snoozed') return { status: row.status, snoozedUntil: null };
  if (row.snoozedUntil === null || row.snoozedUntil <= row.dbNow) return { status: 'open', snoozedUntil: null };
  return { status: 'snoozed', snoozedUntil: row.snoozedUntil.toISOString() };
}
