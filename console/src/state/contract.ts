/**
 * What the console's procedures answer, as the console API contract states them
 * (/admin's server side, `console.*` in the app router). The console reads them only through
 * these names; `contract-check.ts` proves at compile time that the server's inferred
 * outputs still fit them, so a server change that breaks a view breaks `tsc` first.
 */
import type { Attention } from '../../../api/src/shared/attention.ts';
import type { AttachmentKind } from '../../../api/src/shared/attachment-kinds.ts';

/** The signed-in operator. */
export interface Me {
  id: string;
  email: string;
  name: string | null;
  role: 'owner' | 'agent';
}

/**
 * How the signed-in operator is alerted (console.profile.alerts): a browser notification, a
 * sound, an email; `emailEnabled` false when this server has no SMTP_URL (nothing is sent).
 */
export interface AlertSettings {
  notify: boolean;
  sound: boolean;
  email: boolean;
  emailEnabled: boolean;
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
  /** the greeting in other languages, by language code (`de`, `pt`…); null: none */
  greetings: Record<string, string> | null;
  accentColor: string | null;
  launcherPosition: LauncherPosition;
  systemPrompt: string | null;
  model: string | null;
  replyMaxTokens: number | null;
  /** the assistant may hand a conversation to a person (its `handoff_to_human` tool) */
  handoffEnabled: boolean;
  /** a hand-off is assigned at once, round-robin among the site's agents who are signed in */
  autoAssign: boolean;
  /** the widget reports the visitor's page for the visitor profile */
  shareVisitorPages: boolean;
  /** check in after this many minutes of silence; null: never */
  checkInAfterMinutes: number | null;
  /** unsolicited messages (intents, check-ins, server) per visitor per day */
  unsolicitedPerDay: number;
  /** what visitors may attach; none: attachments are off */
  attachmentKinds: AttachmentKind[];
  /** the largest file, in bytes (the deployment's ATTACHMENT_MAX_BYTES caps it) */
  attachmentMaxBytes: number;
  /** the largest total of one message's files, in bytes */
  attachmentMessageMaxBytes: number;
  /** delete a conversation, with its files, this many days after its last message (1–3650); null: keep */
  retentionDays: number | null;
}

export interface SiteSettings extends Omit<SiteFields, 'attachmentKinds'> {
  /** the kinds as stored (text): the editor reads those it knows (`isAttachmentKind`) */
  attachmentKinds: string[];
  id: string;
  key: string;
  /** how many identity secrets exist (their values are never sent) */
  identitySecrets: number;
  /** the embed `<script …>` tag */
  snippet: string;
  /** when the retention sweep last passed over the site; null: never */
  retentionSweptAt: string | Date | null;
  /** how many conversations that pass removed */
  retentionSweptCount: number;
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
  /** an agent who acts on every site, chosen explicitly (owners act on every site whatever is stored) */
  allSites: boolean;
  /** an agent's sites when not `allSites`; empty: no site */
  siteIds: string[];
}

/** What inviting answers: the link (shown once), and whether the server also emails it to the invitee. */
export interface Invitation {
  operator: OperatorRow;
  inviteUrl: string;
  /** false: this server sends no email (no SMTP_URL), the owner passes the link on */
  emailed: boolean;
}

export type ConversationFilter =
  | 'all'
  | 'live'
  | 'input_needed'
  | 'failed'
  | 'unread'
  | 'waiting'
  | 'mine'
  | 'unassigned'
  | 'snoozed'
  | 'resolved';

/** The operator who took a conversation over. */
export interface Holder {
  id: string;
  name: string | null;
}

/** One row of the console's conversation list; `attention` is for THIS operator. */
export interface ConversationItem {
  id: string;
  siteId: string;
  siteName: string;
  /** null for a private conversation, as the excerpt */
  title: string | null;
  titleSource: string | null;
  attention: Attention;
  failed: boolean;
  excerpt: string | null;
  /** the assistant asked for a person and nobody has taken it over yet */
  waitingForPerson: boolean;
  /** the operator who took it over; null while the assistant answers */
  heldBy: Holder | null;
  /** the visitor marked it private: the console shows its metadata, never its words */
  private: boolean;
  /** since when it waits for a person */
  waitingSince?: string | Date | null;
  lastAssistantAt: string | Date | null;
  updatedAt: string | Date;
  createdAt: string | Date;
  visitor: { id: string; externalId: string | null; name: string | null };
  messageCount: number;
  /** whose it is in the team's inbox; null: unassigned */
  assignee: Holder | null;
  /** the team's status (a snooze that ran out reads `open`) */
  status: 'open' | 'resolved' | 'snoozed';
  /** until when it is snoozed */
  snoozedUntil: string | Date | null;
  /** when the visitor last wrote; null: never */
  lastVisitorAt: string | Date | null;
  /** files sent in it, by the visitor and the team (the row's paperclip) */
  attachmentCount: number;
}

export interface ConversationPage {
  items: ConversationItem[];
  nextCursor: string | null;
}

/** A conversation was created or changed: the row as it is now. */
export interface ConversationUpsert {
  type: 'upsert';
  item: ConversationItem;
}

/** A conversation and everything in it was deleted (a visitor's erasure, the visitor, or the site's retention). */
export interface ConversationRemoved {
  type: 'removed';
  conversationId: string;
}

/** One change of the live list (console.conversations.changes). */
export type ConversationChange = ConversationUpsert | ConversationRemoved;

/**
 * A file sent with a message. In a private conversation only what it is stays (kind, type,
 * size): `name` is '' and `url` null.
 */
export interface AttachmentView {
  id: string;
  name: string;
  /** decided from the bytes: image/png, image/jpeg, image/webp, image/gif, application/pdf, text/plain */
  mime: string;
  kind: 'image' | 'file';
  bytes: number;
  /** an image's size in pixels; null for other files */
  width: number | null;
  height: number | null;
  /** relative to the API's base (`api.fileUrl` resolves it); null: withheld */
  url: string | null;
}

export interface TranscriptMessage {
  id: string;
  /** user, assistant, operator, or notice (a line about the conversation: "Ana joined") */
  role: string;
  /** '' when `redacted` (a private conversation) and for notices */
  content: string;
  /** why it appeared (`Provenance` in api/src/shared/provenance.ts); null for plain turns */
  provenance: string | null;
  /** the label's words: the operator's name, the intent's label, the site's name */
  provenanceLabel?: string | null;
  /** the conversation is private: the words are withheld, the metadata stays */
  redacted?: boolean;
  state: string | null;
  error: string | null;
  /** a reply the model stopped at its token cap */
  cutShort?: boolean;
  createdAt: string | Date;
  runId: string | null;
  /** files sent with it, in the order attached */
  attachments: AttachmentView[];
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
  /** how the model's last answer ended (`length`: cut short at the token cap); null before it ended */
  finishReason: string | null;
  error: string | null;
  claimedMessageIds: string[];
  /** the site's excerpts the run was shown, as the model numbered them, and whether the reply cited each */
  knowledge?: { n: number; title: string; url: string | null; heading: string; cited: boolean }[];
}

/** An internal note of the team (never the visitor's, never the model's). */
export interface Note {
  id: string;
  authorName: string;
  operatorId: string | null;
  content: string;
  createdAt: string | Date;
}

/** A site's saved answer, inserted with `/` and its shortcut. */
export interface CannedReply {
  id: string;
  shortcut: string;
  content: string;
  updatedAt: string | Date;
}

export type StatusChange = { status: 'open' } | { status: 'resolved' } | { status: 'snoozed'; until: string };

export interface Transcript {
  conversation: ConversationItem & { visitorTimeZone: string | null };
  /** the same as `conversation.heldBy` */
  heldBy: Holder | null;
  /** since when it waits for a person; null when it does not */
  waitingSince: string | Date | null;
  /** the same as `conversation.private` */
  private: boolean;
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
  /** the team's internal notes, oldest first */
  notes: Note[];
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
  people: OverviewPeople;
}

/** The team's figures of one group: times in whole seconds (null: nothing timed), rating counts. */
export interface PeopleCounts {
  firstResponses: number;
  firstResponseP50S: number | null;
  firstResponseP90S: number | null;
  resolutions: number;
  resolutionP50S: number | null;
  resolutionP90S: number | null;
  helpful: number;
  notHelpful: number;
  /** 👍 among the ratings, 0 to 1; null without ratings */
  helpfulShare: number | null;
}

/** A visitor's comment with their rating (never a private conversation's). */
export interface RatingCommentView {
  conversationId: string;
  siteName: string;
  rating: 1 | -1;
  comment: string;
  ratedAt: string;
  operatorName: string | null;
}

/** First response and resolution times and ratings: per bucket, per operator, over the range. */
export interface OverviewPeople {
  points: ({ t: string } & PeopleCounts)[];
  /** `operator` null: removed, or nobody answered nor was assigned */
  operators: ({ operator: { id: string; name: string } | null } & PeopleCounts)[];
  sites: ({ site: { id: string; name: string } } & PeopleCounts)[];
  total: PeopleCounts;
  /** newest first, at most 50 */
  comments: RatingCommentView[];
  commentCount: number;
}

/** What takeOver and handBack answer: the transcript's head, the conversation as the list shows it. */
export type TranscriptHead = ConversationItem & { visitorTimeZone: string | null };

/** A site's intent rule: what happens when the host page fires `Heed('intent', name)`. */
/** A knowledge source as the console lists it (console.knowledge.sources). */
export interface KnowledgeSourceView {
  id: string;
  /** a crawled site, an uploaded file, or a written snippet */
  kind: 'site' | 'file' | 'snippet';
  /** a site's sitemap or page URL */
  url: string | null;
  /** a file's name or a snippet's question */
  name: string | null;
  /** a file's size in bytes */
  bytes: number | null;
  /** a snippet's answer */
  answer: string | null;
  pages: number;
  excerpts: number;
  lastSyncAt: string | Date | null;
  nextSyncAt: string | Date | null;
  syncing: boolean;
  lastError: string | null;
  pageErrors: { url: string; error: string }[];
}

/** The questions a site's knowledge had nothing for (console.knowledge.unanswered). */
export interface UnansweredQuestions {
  total: number;
  lastWeek: number;
  /** newest first; `text` null in a private conversation */
  questions: { id: string; conversationId: string; text: string | null; createdAt: string | Date }[];
}

export interface IntentRuleView {
  id: string;
  /** what the host page passes, e.g. viewed_pricing */
  name: string;
  /** completes "Because you …", e.g. "viewed Pricing" */
  label: string;
  /** exactly one of instruction (for the assistant) and fixedMessage (said as is) */
  instruction: string | null;
  fixedMessage: string | null;
  enabled: boolean;
  createdAt: string | Date;
  updatedAt: string | Date;
}

export interface IntentRuleInput {
  siteId: string;
  /** absent: a new rule */
  id?: string;
  name: string;
  label: string;
  instruction: string | null;
  fixedMessage: string | null;
  enabled: boolean;
}

/** A site API key as listed (the key itself is never sent again). */
export interface ApiKeyRow {
  id: string;
  name: string;
  /** the key's first characters, to tell keys apart */
  prefix: string;
  createdAt: string | Date;
  lastUsedAt: string | Date | null;
  revokedAt: string | Date | null;
}

/** A new key: `key` is shown this once. */
export interface CreatedApiKey {
  id: string;
  name: string;
  prefix: string;
  createdAt: string | Date;
  key: string;
}

/** Unsolicited messages of a site over the last days: delivered by kind, refused by reason. */
export interface ProactiveStats {
  delivered: { kind: string; count: number }[];
  refused: { reason: string; count: number }[];
}

/** One flag in force for a model (console.model.status): declared in OPENAI_COMPAT or learned from a refusal. */
export interface ModelFlag {
  flag: string;
  parameter: string;
  fallback: string;
  consequence: string;
  featuresOff: boolean;
  source: 'declared' | 'learned';
  providerMessage: string | null;
  learnedAt: string | null;
  seenAt: string | null;
}

/** The configured model server and, per model in use, the flags in force. */
export interface ModelStatus {
  server: string;
  models: { model: string; usedBy: string[]; flags: ModelFlag[] }[];
}

/** One of a visitor's other conversations on the site (console.visitors.profile). */
export interface EarlierConversation {
  id: string;
  /** null for a private conversation, or one without a title yet */
  title: string | null;
  private: boolean;
  createdAt: string | Date;
  updatedAt: string | Date;
  status: 'open' | 'resolved' | 'snoozed';
}

/** Who the visitor of a conversation is (console.visitors.profile). */
export interface VisitorProfile {
  visitorId: string;
  /** what the host signed about an identified user; null: anonymous */
  identified: { userId: string; name: string | null; email: string | null; attributes: Record<string, string | number | boolean> } | null;
  /** the site shares visitor pages; off: `page` is always null */
  pagesShared: boolean;
  page: { url: string; title: string | null } | null;
  referrer: string | null;
  /** "Chrome 131 on macOS"; null when the user agent could not be read */
  browser: string | null;
  userAgent: string | null;
  language: string | null;
  timeZone: string;
  firstSeenAt: string | Date;
  lastSeenAt: string | Date;
  /** newest activity first, at most 20 */
  earlier: EarlierConversation[];
}

/** What erasing a conversation's visitor would remove (console.visitors.erasure), for the confirmation. */
export interface VisitorErasure {
  visitorId: string;
  /** the site identified them: every browser with their user id goes too */
  identified: boolean;
  /** the user id the site signed; null: anonymous */
  externalId: string | null;
  counts: { conversations: number; messages: number; attachments: number };
}

/** What an erasure removed (console.visitors.erase); the content-free record of it stays on the server. */
export interface ErasureResult {
  erasedAt: string;
  /** an identified user (every browser of theirs) or one anonymous visitor */
  subject: 'user' | 'visitor';
  /** rows removed by kind: visitors, conversations, messages, attachments, files… */
  counts: Record<string, number>;
}
