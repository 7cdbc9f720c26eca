import { Prisma } from '../db/client.ts';
import type { RawSql } from '../db/raw-sql.ts';

/** Characters of the visitor's words an unanswered question keeps. */
export const UNANSWERED_TEXT_MAX = 500;

// The first word of a question in the languages visitors most often write in, besides any "?".
const QUESTION_START =
  /^(?:what|when|where|which|who|whom|whose|why|how|is|are|am|was|were|do|does|did|can|could|will|would|should|shall|may|might|have|has|any|hva|hvor|hvordan|når|hvem|hvilken|hvilke|kan|har|er|vad|hur|var|när|vem|was|wann|wo|wie|warum|welche|wer|kann|gibt|que|quoi|quand|où|comment|pourquoi|qui|quel|quelle|est-ce|qué|cuándo|dónde|cómo|por qué|quién|cuál|puedo|hay)\b/i;

/**
 * Whether the visitor's words ask something: a question mark, or a sentence that starts like a
 * question ("how long does delivery take"). A greeting or a thank-you that matched no page is not
 * an unanswered question. Pure.
 * @example asksSomething(['Do you ship to Iceland']) // true
 * @example asksSomething(['thanks!']) // false
 */
export function asksSomething(texts: readonly string[]): boolean {
  return texts.some((t) => /[?？¿]/.test(t) || t.split(/[\n.!]+/).some((s) => QUESTION_START.test(s.trim())));
}

/**
 * Counts the run's batch as a question the site's knowledge had nothing for (the console's
 * "Unanswered questions"). One entry per run; a run recorded twice (a retry) keeps its first.
 * @example await recordUnanswered(sql, { siteId, conversationId, runId, texts: ['Do you ship to Iceland?'] })
 */
export async function recordUnanswered(
  sql: RawSql,
  q: { siteId: string; conversationId: string; runId: string; texts: readonly string[] },
): Promise<void> {
  const text = q.texts.join('\n').trim().slice(0, UNANSWERED_TEXT_MAX);
  await sql.count(Prisma.sql`
    INSERT INTO "UnansweredQuestion" (id, "siteId", "conversationId", "runId", text)
    VALUES (gen_random_uuid(), ${q.siteId}::uuid, ${q.conversationId}::uuid, ${q.runId}::uuid, ${text})
    ON CONFLICT ("runId") DO NOTHING`);
}
