import type { Tx } from '../db/types.ts';

/**
 * Rows a removal takes, by kind: what an erasure's audit record keeps and what the API answers.
 * Counts only, never content.
 */
export interface RemovalCounts {
  visitors: number;
  conversations: number;
  messages: number;
  runs: number;
  /** the visitor's event log rows (each a copy of a message, a title or a state change) */
  events: number;
  /** questions the assistant asked the visitor */
  questions: number;
  todos: number;
  attachments: number;
  /** attachments' bytes in the file store */
  files: number;
  /** emails queued or sent about these conversations or to this visitor */
  emails: number;
  /** the team's internal notes */
  notes: number;
  /** entries of the knowledge's "Unanswered questions" */
  unansweredQuestions: number;
  /** operators' read markers */
  readMarkers: number;
}

export const NO_REMOVALS: RemovalCounts = {
  visitors: 0,
  conversations: 0,
  messages: 0,
  runs: 0,
  events: 0,
  questions: 0,
  todos: 0,
  attachments: 0,
  files: 0,
  emails: 0,
  notes: 0,
  unansweredQuestions: 0,
  readMarkers: 0,
};

/**
 * The rows that go with these conversations by cascade (the caller counts what it deletes or
 * reads itself), counted inside the removing transaction after the rows are locked, so the count
 * is what goes.
 */
export async function countCascadedRows(
  tx: Tx,
  conversationIds: readonly string[],
): Promise<Pick<RemovalCounts, 'messages' | 'questions' | 'todos' | 'notes' | 'unansweredQuestions' | 'readMarkers'>> {
  const ids = [...conversationIds];
  const [row] = await tx.$queryRaw<Record<'messages' | 'questions' | 'todos' | 'notes' | 'unansweredQuestions' | 'readMarkers', bigint>[]>`
    SELECT
      (SELECT count(*) FROM "Message" WHERE "conversationId" = ANY(${ids}::uuid[])) AS messages,
      (SELECT count(*) FROM "InputRequest" WHERE "conversationId" = ANY(${ids}::uuid[])) AS questions,
      (SELECT count(*) FROM "Todo" WHERE "conversationId" = ANY(${ids}::uuid[])) AS todos,
      (SELECT count(*) FROM "ConversationNote" WHERE "conversationId" = ANY(${ids}::uuid[])) AS notes,
      (SELECT count(*) FROM "UnansweredQuestion" WHERE "conversationId" = ANY(${ids}::uuid[])) AS "unansweredQuestions",
      (SELECT count(*) FROM "OperatorRead" WHERE "conversationId" = ANY(${ids}::uuid[])) AS "readMarkers"`;
  const n = (v: bigint | undefined) => Number(v ?? 0n);
  return {
    messages: n(row?.messages),
    questions: n(row?.questions),
    todos: n(row?.todos),
    notes: n(row?.notes),
    unansweredQuestions: n(row?.unansweredQuestions),
    readMarkers: n(row?.readMarkers),
  };
}
