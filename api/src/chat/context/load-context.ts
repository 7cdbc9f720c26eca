import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { RawSql } from '../../db/raw-sql.ts';
import { buildContext, historyWindow, type ContextInput, type ContextRow } from './build-context.ts';
import type { ContextFile } from './turn-content.ts';
import { filesOfMessages } from '../../attachments/context-files.ts';
import type { FileStore } from '../../attachments/store/file-store.ts';
import type { ClaimedBatch } from '../schedule/claim-batch.ts';
import { readContextSnapshot, type RunChecks } from './context-query.ts';
import { recallFrom } from './recall.ts';
import { retrieveKnowledge, type HybridSearch, type KnowledgeHit } from '../../knowledge/retrieve.ts';
import type { ProactiveBrief } from '../../proactive/proactive-section.ts';

/** Everything {@link buildContext} takes but the system prompt and the hand-off: what a run reads from the database. */
export type ContextReads = Omit<ContextInput, 'systemPrompt' | 'handoff' | 'knowledge'> & { knowledge: KnowledgeHit[] };

/** What a run reads before its model request, as {@link readRunContext} takes it. */
export interface RunReadOptions {
  tokenBudget: number;
  /** the deployment's daily cap, for sites without their own */
  spendCapUsd: number;
  /** site knowledge by meaning as well as words; absent: by words */
  hybrid?: HybridSearch | null;
  /** where attached files' bytes are (a batch's images go to the model); absent: files are only named */
  files?: FileStore | null;
  /** told of an attached image whose bytes the store does not have */
  onMissingFile?: (storeKey: string) => void;
}

/**
 * Reads what the context builder needs for one run (history, the input requests those rows
 * ask or answer plus the open one, open todos, recall hits for the whole batch) and builds the
 * model's messages. `systemPrompt` defaults to Heed's own (a site's adds its instructions).
 */
export async function loadContext(
  sql: RawSql,
  batch: ClaimedBatch,
  opts: RunReadOptions,
  systemPrompt?: string,
): Promise<ChatCompletionMessageParam[]> {
  return buildContext({ ...(await readRunContext(sql, batch, opts)).reads, systemPrompt });
}

/**
 * The reads of {@link loadContext} without the build, so a run can read them while it reads its
 * site's settings (which carry the system prompt), and the run's checks (spend cap, hand-off),
 * which ride the first statement instead of taking pool connections of their own. Two round
 * trips: one statement for everything that needs only the batch (chat/context/context-query.ts), then
 * recall's ranking, which needs what that statement returns: the batch's words (the claimed
 * rows' text, cut into terms by recall-query.ts, which SQL's parsers do not reproduce) and the
 * history window (token-budgeted here) it must look beyond. As seven Prisma queries in
 * two waves these reads cost ~8 ms a wave under load.
 */
export async function readRunContext(
  sql: RawSql,
  batch: ClaimedBatch,
  opts: RunReadOptions,
): Promise<{ reads: ContextReads; checks: RunChecks }> {
  const snapshot = await readContextSnapshot(sql, batch, opts.spendCapUsd);
  const { earlier: rows, claimed } = snapshot;
  const window = historyWindow({ rows, claimed, watermark: batch.watermark, tokenBudget: opts.tokenBudget });
  const windowStartSeq = window[0]?.seq ?? claimed[0]?.seq ?? batch.watermark + 1n;
  const scope = { visitorId: batch.visitorId, siteId: snapshot.siteId, conversationId: batch.conversationId, windowStartSeq };
  const texts = claimed.map((r) => r.content);
  // the site's pages and the messages' files, beside recall: one round trip for all
  const [recall, knowledge, files] = await Promise.all([
    recallFrom(sql, scope, texts, snapshot.recentFrom),
    batch.proactive ? { hits: [], searched: false } : retrieveKnowledge(sql, snapshot.siteId, texts, opts.hybrid ?? null),
    opts.files ? filesOfMessages(sql, opts.files, filesAsked(claimed, window, opts.onMissingFile)) : new Map<string, ContextFile[]>(),
  ]);
  const withFiles = <R extends ContextRow>(r: R): R => (files.has(r.id) ? { ...r, files: files.get(r.id) } : r);
  const reads: ContextReads = {
    rows: files.size > 0 ? rows.map(withFiles) : rows,
    claimed: files.size > 0 ? claimed.map(withFiles) : claimed,
    watermark: batch.watermark,
    timeZone: snapshot.timeZone,
    tokenBudget: opts.tokenBudget,
    requests: snapshot.requests,
    todos: snapshot.todos,
    recall,
    knowledge: knowledge.hits,
    knowledgeMissed: knowledge.searched && knowledge.hits.length === 0,
    proactive: proactiveBrief(batch),
  };
  return { reads, checks: snapshot.checks };
}

/** The user messages whose files a run reads: the claimed ones (images shown) and the history window's (named). */
function filesAsked(claimed: readonly ContextRow[], window: readonly ContextRow[], onMissing?: (storeKey: string) => void) {
  const users = (rows: readonly ContextRow[]) => rows.filter((r) => r.role === 'user').map((r) => r.id);
  return { claimedIds: users(claimed), earlierIds: users(window), onMissing };
}

/** What the model is told about an unsolicited message this run writes (null for a reply). */
function proactiveBrief(batch: ClaimedBatch): ProactiveBrief | null {
  const p = batch.proactive;
  if (!p) return null;
  if (p.kind === 'check_in') return { kind: 'check_in', silentMinutes: p.silentMinutes ?? 0 };
  if (p.kind === 'intent' && p.intent)
    return { kind: 'intent', name: p.intent.name, label: p.label, instruction: p.intent.instruction, data: p.intent.data };
  return null;
}
