import { Prisma } from '../db/client.ts';
import type { Services } from '../services.ts';
import type { DbLike } from '../db/types.ts';
import { siteScopeSql, type SiteScope } from '../operators/site-access.ts';

/** Longest note, in characters. */
export const NOTE_MAX = 4000;

/** A note as the console shows it. */
export interface NoteView {
  id: string;
  authorName: string;
  /** the note's author, null once they were removed from the team */
  operatorId: string | null;
  content: string;
  createdAt: string;
}

const NOTE_SELECT = {
  id: true,
  authorName: true,
  operatorId: true,
  content: true,
  createdAt: true,
} as const satisfies Prisma.ConversationNoteSelect;

const toView = (n: Prisma.ConversationNoteGetPayload<{ select: typeof NOTE_SELECT }>): NoteView => ({
  ...n,
  createdAt: n.createdAt.toISOString(),
});

/**
 * Adds an internal note to a conversation of the author's sites; null when it is not in their
 * scope. Notes live in their own table, which no visitor path, model context, title pass or
 * recall reads. Other consoles showing the conversation are told it changed (no event is
 * logged for the visitor: nothing of theirs changed).
 */
export async function addNote(
  s: Pick<Services, 'db' | 'bus'>,
  input: { conversationId: string; operator: { id: string; name: string }; content: string; sites: SiteScope },
): Promise<NoteView | null> {
  const [row] = await s.db.$queryRaw<{ id: string }[]>`
    INSERT INTO "ConversationNote" (id, "conversationId", "operatorId", "authorName", content)
    SELECT gen_random_uuid(), c.id, ${input.operator.id}::uuid, ${input.operator.name}, ${input.content}
    FROM "Conversation" c WHERE c.id = ${input.conversationId}::uuid AND ${siteScopeSql(input.sites, Prisma.sql`c."siteId"`)}
    RETURNING id`;
  if (!row) return null;
  await s.bus.touchConversations([input.conversationId]).catch((err: unknown) => s.bus.notifyFailed(err));
  return toView(await s.db.conversationNote.findUniqueOrThrow({ where: { id: row.id }, select: NOTE_SELECT }));
}

/** A conversation's notes, oldest first (the caller checked the scope). */
export async function notesOf(db: DbLike, conversationId: string): Promise<NoteView[]> {
  const rows = await db.conversationNote.findMany({
    where: { conversationId },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    select: NOTE_SELECT,
    take: 500,
  });
  return rows.map(toView);
}
