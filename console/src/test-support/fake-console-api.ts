import { ServerError } from '../../../widget/src/state/trpc-wire.ts';
import type { ChangeHandlers, ConsoleApi } from '../state/console-api.ts';
import { people } from './fake-people.ts';
import type { AttachmentView, ConversationItem, ErasureResult, Me, SiteSettings, Transcript, VisitorProfile } from '../state/contract.ts';

let n = 0;

/** A conversation row as the server sends it, with defaults; pass what the test cares about. */
export function item(over: Partial<ConversationItem> = {}): ConversationItem {
  const i = ++n;
  return {
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    siteId: 'site-1',
    siteName: 'Shop',
    title: `Conversation ${i}`,
    titleSource: 'first_message',
    attention: 'default',
    failed: false,
    excerpt: null,
    waitingForPerson: false,
    heldBy: null,
    private: false,
    lastAssistantAt: null,
    updatedAt: new Date(Date.UTC(2026, 0, 1, 10, 0, i)).toISOString(),
    createdAt: '2026-01-01T09:00:00.000Z',
    visitor: { id: `v-${i}`, externalId: null, name: null },
    messageCount: 1,
    assignee: null,
    status: 'open',
    snoozedUntil: null,
    lastVisitorAt: null,
    attachmentCount: 0,
    ...over,
  };
}

/** A 1 × 1 PNG as an attachment's `url`: a `data:` address resolves to itself, so the image really loads. */
export const PIXEL =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/**
 * A file as the server's view shows it, with defaults (a 1.2 MB PNG of 1200 × 800); pass what
 * the test cares about. `url` may be a `data:` address: it resolves to itself, so an `<img>`
 * really loads in the test's page.
 */
export function attachment(over: Partial<AttachmentView> = {}): AttachmentView {
  const i = ++n;
  return {
    id: `att-${i}`,
    name: `screenshot-${i}.png`,
    mime: 'image/png',
    kind: 'image',
    bytes: Math.round(1.2 * 1024 * 1024),
    width: 1200,
    height: 800,
    url: `files/att-${i}?k=key${i}`,
    ...over,
  };
}

export const owner: Me = { id: 'op-1', email: 'owner@example.test', name: 'Olive Owner', role: 'owner' };

/** A refusal as the server's error formatter shapes it. */
export function refusal(code: string, reason: string | null, message = 'refused', extra: Record<string, unknown> = {}): ServerError {
  return new ServerError(message, { code, reason, ...extra });
}

type Api = ConsoleApi;

/**
 * An in-memory console API for component tests: canned answers (override any method),
 * every call recorded as `[name, ...args]`, and `emit` to push a live change down the
 * subscription. The real thing is exercised end to end in test/e2e/console.e2e.test.ts.
 */
export function fakeConsoleApi(over: Partial<Api> = {}) {
  const calls: unknown[][] = [];
  const streams = new Set<ChangeHandlers>();
  const site: SiteSettings = {
    id: 'site-1',
    key: 'shop',
    name: 'Shop',
    allowedOrigins: ['https://shop.example'],
    requireIdentity: false,
    identitySecrets: 0,
    assistantName: null,
    greeting: null,
    greetings: null,
    accentColor: null,
    launcherPosition: 'bottom_right',
    systemPrompt: null,
    model: null,
    replyMaxTokens: null,
    handoffEnabled: false,
    autoAssign: false,
    shareVisitorPages: false,
    checkInAfterMinutes: null,
    unsolicitedPerDay: 2,
    attachmentKinds: ['png', 'jpeg', 'webp', 'gif', 'pdf', 'text'],
    attachmentMaxBytes: 10 * 1024 * 1024,
    attachmentMessageMaxBytes: 20 * 1024 * 1024,
    retentionDays: null,
    retentionSweptAt: null,
    retentionSweptCount: 0,
    snippet: '<script src="http://api.test/widget.js" data-site="shop" async></script>',
    createdAt: '2026-01-01T00:00:00.000Z',
  };
  const base: Api = {
    me: async () => owner,
    signIn: async () => ({ operator: owner }),
    signOut: async () => ({}),
    acceptInvite: async () => ({ operator: owner }),
    operators: async () => [],
    invite: async ({ sites, ...input }) => ({
      operator: {
        id: 'op-2',
        ...input,
        pending: true,
        createdAt: '2026-01-01T00:00:00Z',
        allSites: sites === 'all',
        siteIds: sites === 'all' ? [] : sites,
      },
      inviteUrl: 'http://api.test/admin/#/invite/t0k3n',
      emailed: false,
    }),
    removeOperator: async () => ({ removed: true }),
    setOperatorSites: async (operatorId, sites) => ({
      id: operatorId,
      email: 'agent@example.test',
      name: null,
      role: 'agent',
      pending: false,
      createdAt: '2026-01-01T00:00:00Z',
      allSites: sites === 'all',
      siteIds: sites === 'all' ? [] : sites,
    }),
    sites: async () => [{ id: site.id, key: site.key, name: site.name, conversations: 2, createdAt: site.createdAt }],
    site: async () => site,
    createSite: async (input) => ({ ...site, ...input, id: 'site-new' }) as SiteSettings,
    updateSite: async (_id, input) => ({ ...site, ...input }),
    siteDeletion: async () => ({ conversations: 12, visitors: 5, messages: 140 }),
    deleteSite: async () => ({ deleted: { conversations: 12, visitors: 5, messages: 140 } }),
    rotateIdentitySecret: async () => ({ secret: 'sec_once' }),
    conversations: async () => ({ items: [], nextCursor: null }),
    visitorProfile: async () => visitorProfile(),
    visitorErasure: async () => ({
      visitorId: 'v-1',
      identified: false,
      externalId: null,
      counts: { conversations: 3, messages: 41, attachments: 2 },
    }),
    eraseVisitor: async () => erasureResult(),
    transcript: async () => {
      throw refusal('NOT_FOUND', null, 'No such conversation.');
    },
    markRead: async () => ({}),
    retry: async () => ({}),
    rename: async () => ({}),
    retitle: async () => ({}),
    takeOver: async (conversationId) => ({
      ...item({ id: conversationId, heldBy: { id: owner.id, name: owner.name } }),
      visitorTimeZone: null,
    }),
    reply: async (input) => ({
      id: `m-${input.clientMessageId}`,
      role: 'operator',
      content: input.text,
      provenance: 'operator',
      provenanceLabel: owner.name,
      state: null,
      error: null,
      createdAt: '2026-01-01T10:01:00.000Z',
      runId: null,
      attachments: [],
    }),
    // half way, then the whole file: what the real upload reports on a quick connection
    uploadAttachment: async (_conversationId, file, o = {}) => {
      o.onProgress?.(0.5);
      const image = file.type.startsWith('image/');
      return attachment({
        name: file.name,
        mime: file.type || 'text/plain',
        kind: image ? 'image' : 'file',
        bytes: file.size,
        width: image ? 1 : null,
        height: image ? 1 : null,
      });
    },
    fileUrl: (url) => new URL(url, `${location.origin}/`).href,
    handBack: async (conversationId) => ({ ...item({ id: conversationId }), visitorTimeZone: null }),
    assign: async (conversationId, assigneeId) =>
      item({ id: conversationId, assignee: assigneeId ? { id: assigneeId, name: 'Agent' } : null }),
    setStatus: async (conversationId, change) =>
      item({ id: conversationId, status: change.status, snoozedUntil: change.status === 'snoozed' ? change.until : null }),
    addNote: async (_conversationId, text) => ({
      id: `note-${++n}`,
      authorName: owner.name ?? '',
      operatorId: owner.id,
      content: text,
      createdAt: new Date().toISOString(),
    }),
    cannedReplies: async () => [],
    saveCannedReply: async (_siteId, reply) => ({ id: reply.id ?? `canned-${++n}`, ...reply, updatedAt: new Date().toISOString() }),
    removeCannedReply: async () => ({ removed: true }),
    renameSelf: async (name) => ({ name }),
    changePassword: async () => ({ changed: true as const }),
    signOutEverywhere: async () => ({ sessions: 1 }),
    alertSettings: async () => ({ notify: true, sound: false, email: true, emailEnabled: true }),
    setAlertSettings: async (change) => ({ notify: true, sound: false, email: true, emailEnabled: true, ...change }),
    knowledgeSources: async () => [],
    addKnowledgeSource: async () => ({ id: 'source-new' }),
    syncKnowledgeSource: async () => ({ started: true as const }),
    removeKnowledgeSource: async () => ({ removed: true as const }),
    uploadKnowledgeFile: async () => ({ id: 'file-new', excerpts: 1 }),
    saveSnippet: async (_siteId, snippet) => ({ id: snippet.id ?? 'snippet-new' }),
    unansweredQuestions: async () => ({ total: 0, lastWeek: 0, questions: [] }),
    dismissUnanswered: async () => ({ dismissed: true as const }),
    intentRules: async () => [],
    saveIntentRule: async (input) => ({
      ...input,
      id: input.id ?? 'rule-new',
      createdAt: '2026-01-01T00:00:00Z',
      updatedAt: '2026-01-01T00:00:00Z',
    }),
    removeIntentRule: async () => ({ ok: true }),
    apiKeys: async () => [],
    createApiKey: async (_siteId, name) => ({
      id: 'key-new',
      name,
      prefix: 'hk_live_ab12',
      createdAt: '2026-01-01T00:00:00Z',
      key: 'hk_live_ab12_secret_once',
    }),
    revokeApiKey: async () => ({ ok: true }),
    proactiveStats: async () => ({ delivered: [], refused: [] }),
    overview: async () => ({ bucket: 'day', points: [], people: people() }),
    modelStatus: async () => ({
      server: 'http://127.0.0.1:11434/v1',
      models: [{ model: 'llama3', usedBy: ['Replies (deployment default)', 'Titles'], flags: [] }],
    }),
    closeChanges: () => streams.clear(),
    changes: (_siteId, h) => {
      streams.add(h);
      queueMicrotask(() => h.onState('connected'));
      return () => streams.delete(h);
    },
  };
  const api = {} as Api;
  for (const key of Object.keys(base) as (keyof Api)[]) {
    const impl = (over[key] ?? base[key]) as (...args: unknown[]) => unknown;
    (api as Record<string, unknown>)[key] = (...args: unknown[]) => {
      calls.push([key, ...args]);
      return impl(...args);
    };
  }
  return {
    api,
    calls,
    site,
    /** calls of one method, their arguments */
    callsOf: (name: keyof Api) => calls.filter((c) => c[0] === name).map((c) => c.slice(1)),
    /** pushes a change to every open subscription */
    emit: (changed: ConversationItem) => streams.forEach((h) => h.onChange({ type: 'upsert', item: changed })),
    /** pushes a removal (the conversation was deleted) to every open subscription */
    emitRemoved: (conversationId: string) => streams.forEach((h) => h.onRemoved?.(conversationId)),
    get openStreams() {
      return streams.size;
    },
  };
}

/** A transcript with one batched run that claimed three visitor messages and answered them. */
export function transcript(over: Partial<Transcript['conversation']> = {}, failed = false): Transcript {
  const c = { ...item({ title: 'Sizes and shipping', failed }), visitorTimeZone: 'Asia/Tokyo', ...over };
  const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 10, 0, s)).toISOString();
  const users = [1, 2, 3].map((i) => ({
    id: `m${i}`,
    role: 'user',
    content: `Question ${i}`,
    provenance: null,
    state: 'answered',
    error: null,
    createdAt: at(i),
    runId: 'run-1',
    attachments: [],
  }));
  const reply = failed
    ? {
        id: 'm4',
        role: 'assistant',
        content: '',
        provenance: null,
        state: 'failed',
        error: 'model_timeout',
        createdAt: at(9),
        runId: 'run-1',
        attachments: [],
      }
    : {
        id: 'm4',
        role: 'assistant',
        content: 'All three answered.',
        provenance: null,
        state: null,
        error: null,
        createdAt: at(9),
        runId: 'run-1',
        attachments: [],
      };
  return {
    conversation: c,
    heldBy: c.heldBy,
    waitingSince: null,
    private: c.private,
    messages: [...users, reply],
    runs: [
      {
        id: 'run-1',
        status: failed ? 'failed' : 'completed',
        model: 'test-model',
        attempts: 1,
        promptTokens: 321,
        completionTokens: 42,
        costUsd: 0.00031,
        startedAt: at(4),
        firstTokenAt: '2026-01-01T10:00:04.850Z',
        endedAt: at(9),
        finishReason: failed ? null : 'length',
        error: failed ? 'model_timeout' : null,
        claimedMessageIds: ['m1', 'm2', 'm3'],
      },
    ],
    inputRequests: [],
    todos: [],
    titleHistory: [
      { at: at(1), source: 'first_message', title: 'Question 1' },
      { at: at(20), source: 'generated', title: 'Sizes and shipping' },
    ],
    titleChecks: [
      {
        id: 'tc1',
        outcome: 'changed',
        model: 'test-model',
        promptTokens: 80,
        completionTokens: 6,
        costUsd: 0.00012,
        latencyMs: 640,
        errorCode: null,
        createdAt: at(20),
      },
    ],
    notes: [],
  };
}

/** A visitor's profile as the server sends it: an identified customer on a site that shares pages, with one earlier conversation. */
export function visitorProfile(over: Partial<VisitorProfile> = {}): VisitorProfile {
  return {
    visitorId: 'v-1',
    identified: { userId: 'customer-42', name: 'Ines Costa', email: 'ines@example.test', attributes: { plan: 'pro', seats: 12 } },
    pagesShared: true,
    page: { url: 'https://shop.example/boots/trail-runner?size=42', title: 'Trail runner — Outdoor shop' },
    referrer: 'https://search.example/',
    browser: 'Chrome 131 on macOS',
    userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    language: 'pt-BR',
    timeZone: 'Europe/Lisbon',
    firstSeenAt: '2025-12-01T09:00:00.000Z',
    lastSeenAt: '2026-01-01T10:00:00.000Z',
    earlier: [
      {
        id: '00000000-0000-4000-8000-0000000000e1',
        title: 'Return of a jacket',
        private: false,
        createdAt: '2025-12-02T09:00:00.000Z',
        updatedAt: '2025-12-02T09:30:00.000Z',
        status: 'resolved',
      },
    ],
    ...over,
  };
}

/** What erasing an anonymous visitor with 3 conversations, 41 messages and 2 files answers. */
export function erasureResult(over: Partial<ErasureResult> = {}): ErasureResult {
  return {
    erasedAt: '2026-01-02T10:00:00.000Z',
    subject: 'visitor',
    counts: { visitors: 1, conversations: 3, messages: 41, runs: 20, events: 90, attachments: 2, files: 2 },
    ...over,
  };
}
