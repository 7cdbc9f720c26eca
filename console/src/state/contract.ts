/**
 * What the console's procedures answer, as the console API contract states them
 * (/admin's server side, `console.*` in the app router). The console reads them only through
 * these names; `contract-check.ts` proves at compile time that the server's inferred
 * outputs still fit them, so a server change that breaks a view breaks `tsc` first.
 */
import type { Attention } from '../../../api/src/shared/attention.ts';

/** The signed-in operator. */
export interface Me {
  id: string;
  email: string;
  name: string | null;
  role: 'owner' | 'agent';
}

export interface SiteSummary {
  id: string;
  key: string;
  name: string;
  conversations: number;
  createdAt: string | Date;
}

export type LauncherPosition = 'bottom_right' | 'bottom_left';

/** The settings an owner edits (all of them optional on update). */
export interface SiteFields {
  name: string;
  allowedOrigins: string[];
  requireIdentity: boolean;
  assistantName: string | null;
  greeting: string | null;
  accentColor: string | null;
  launcherPosition: LauncherPosition;
  systemPrompt: string | null;
  model: string | null;
  replyMaxTokens: number | null;
}

export interface SiteSettings extends SiteFields {
  id: string;
  key: string;
  /** how many identity secrets exist (their values are never sent) */
  identitySecrets: number;
  /** the embed `<script …>` tag */
  snippet: string;
  createdAt: string | Date;
}

/** What deleting a site removes. */
export interface SiteDeletion {
  conversations: number;
  visitors: number;
  messages: number;
}

export interface OperatorRow {
  id: string;
  email: string;
  name: string | null;
  role: 'owner' | 'agent';
  /** invited, the invitation not accepted yet */
  pending: boolean;
  createdAt: string | Date;
}

export type ConversationFilter = 'all' | 'live' | 'input_needed' | 'failed' | 'unread';

/** One row of the console's conversation list; `attention` is for THIS operator. */
export interface ConversationItem {
  id: string;
  siteId: string;
  siteName: string;
  title: string | null;
  titleSource: string | null;
  attention: Attention;
  failed: boolean;
  excerpt: string | null;
  lastAssistantAt: string | Date | null;
  updatedAt: string | Date;
  createdAt: string | Date;
  visitor: { id: string; externalId: string | null; name: string | null };
  messageCount: number;
}

export interface ConversationPage {
  items: ConversationItem[];
  nextCursor: string | null;
}

export interface ConversationChange {
  type: 'upsert';
  item: ConversationItem;
}

export interface TranscriptMessage {
  id: string;
  role: string;
  content: string;
  provenance: string | null;
  state: string | null;
  error: string | null;
  createdAt: string | Date;
  runId: string | null;
}

export interface TranscriptRun {
  id: string;
  status: string;
  model: string | null;
  attempts: number;
  promptTokens: number | null;
  completionTokens: number | null;
  costUsd: number | string | null;
  startedAt: string | Date | null;
  firstTokenAt: string | Date | null;
  endedAt: string | Date | null;
  error: string | null;
  claimedMessageIds: string[];
}

export interface Transcript {
  conversation: ConversationItem & { visitorTimeZone: string | null };
  messages: TranscriptMessage[];
  runs: TranscriptRun[];
  inputRequests: { id: string; question: string; choices: string[]; status: string; createdAt: string | Date }[];
  todos: { id: string; text: string; status: string; createdAt: string | Date; completedAt: string | Date | null }[];
  /** `at` null: when the title came is not stored (titles from before the history) */
  titleHistory: { at: string | Date | null; source: string; title: string | null }[];
  titleChecks: {
    id: string;
    outcome: string;
    model: string | null;
    promptTokens: number | null;
    completionTokens: number | null;
    costUsd: number | string | null;
    latencyMs: number | null;
    errorCode: string | null;
    createdAt: string | Date;
  }[];
}

export type OverviewRange = '24h' | '7d' | '30d';

export interface OverviewPoint {
  t: string;
  conversations: number;
  replies: number;
  failures: number;
  failuresByKind: Record<string, number>;
  ttftP50Ms: number | null;
  ttftP95Ms: number | null;
  promptTokens: number;
  completionTokens: number;
  titleCostUsd: number;
  replyCostUsd: number;
}

export interface OverviewSeries {
  bucket: 'hour' | 'day';
  points: OverviewPoint[];
}
