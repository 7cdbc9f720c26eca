import { callProcedure, openStream } from '../../../widget/src/state/trpc-wire.ts';
import { type ChangeHandlers, sharedChanges } from './shared-changes.ts';
import { type UploadOptions, uploadFile } from './upload.ts';
import type {
  AlertSettings,
  ApiKeyRow,
  CannedReply,
  ConversationChange,
  ConversationItem,
  Note,
  StatusChange,
  CreatedApiKey,
  ErasureResult,
  IntentRuleInput,
  IntentRuleView,
  Invitation,
  KnowledgeSourceView,
  UnansweredQuestions,
  ConversationFilter,
  ConversationPage,
  Me,
  OperatorRow,
  ModelStatus,
  OverviewRange,
  OverviewSeries,
  ProactiveStats,
  SiteDeletion,
  SiteFields,
  SiteSettings,
  SiteSummary,
  Transcript,
  TranscriptHead,
  TranscriptMessage,
  VisitorErasure,
  VisitorProfile,
} from './contract.ts';

export type { ChangeHandlers };

export interface ListInput {
  siteId?: string;
  filter: ConversationFilter;
  search?: string;
  cursor?: string;
  limit?: number;
}

/**
 * The console's calls to `console.*` on its own origin. The session is the HttpOnly cookie
 * the browser sends by itself (same origin); mutations are POSTs, which carry `Origin`, as
 * the server requires. The wire is the widget's (`trpc-wire.ts`: no tRPC client in the
 * bundle, the same SSE reconnect-and-resume); errors are its `ServerError`, with the
 * server's `reason` and field errors in `data`.
 *
 * Files go beside tRPC: uploads to `files` and attachments' addresses (`files/<id>?k=…`) are
 * relative to the API's base, the folder `base` is in (`/trpc` → `/`).
 *
 * @example const api = createConsoleApi(); const me = await api.me();
 */
export function createConsoleApi(base = new URL('/trpc', location.origin).href) {
  const apiBase = new URL('.', base).href;
  const query = <T>(path: string, input?: unknown) => callProcedure(base, `console.${path}`, 'query', input, {}) as Promise<T>;
  const mutate = <T>(path: string, input?: unknown) => callProcedure(base, `console.${path}`, 'mutation', input, {}) as Promise<T>;
  // one stream of every site's changes per tab, views filter it (see shared-changes.ts)
  const shared = sharedChanges((h) =>
    openStream(
      base,
      'console.conversations.changes',
      (last) => (last ? { lastEventId: last } : {}),
      async () => ({}),
      {
        onData: (data) => h.onChange(data as ConversationChange),
        onState: h.onState,
        onError: h.onError,
      },
    ),
  );
  return {
    me: () => query<Me | null>('auth.me'),
    signIn: (input: { email: string; password: string }) => mutate<{ operator: Me }>('auth.signIn', input),
    signOut: () => mutate<unknown>('auth.signOut'),
    renameSelf: (name: string) => mutate<{ name: string }>('profile.rename', { name }),
    changePassword: (current: string, next: string) => mutate<{ changed: true }>('profile.changePassword', { current, next }),
    signOutEverywhere: () => mutate<{ sessions: number }>('profile.signOutEverywhere'),
    alertSettings: () => query<AlertSettings>('profile.alerts'),
    /** the channels to change; the others stay */
    setAlertSettings: (change: Partial<Pick<AlertSettings, 'notify' | 'sound' | 'email'>>) =>
      mutate<AlertSettings>('profile.setAlerts', change),
    acceptInvite: (input: { token: string; name: string; password: string }) => mutate<{ operator: Me }>('auth.acceptInvite', input),

    operators: () => query<OperatorRow[]>('operators.list'),
    /** an agent's `sites`: 'all' (explicitly), or the sites they work on (none: no site) */
    invite: (input: { email: string; name: string; role: 'owner' | 'agent'; sites: 'all' | string[] }) =>
      mutate<Invitation>('operators.invite', input),
    removeOperator: (operatorId: string) => mutate<{ removed: true }>('operators.remove', { operatorId }),
    /** an agent's sites: 'all' (explicitly), or a list (none: no site) */
    setOperatorSites: (operatorId: string, sites: 'all' | string[]) => mutate<OperatorRow>('operators.setSites', { operatorId, sites }),

    sites: () => query<SiteSummary[]>('sites.list'),
    site: (siteId: string) => query<SiteSettings>('sites.get', { siteId }),
    createSite: (input: Partial<SiteFields> & { name: string; key?: string }) => mutate<SiteSettings>('sites.create', input),
    updateSite: (siteId: string, input: Partial<SiteFields>) => mutate<SiteSettings>('sites.update', { siteId, ...input }),
    siteDeletion: (siteId: string) => query<SiteDeletion>('sites.deletion', { siteId }),
    deleteSite: (siteId: string, confirmKey: string) => mutate<{ deleted: SiteDeletion }>('sites.delete', { siteId, confirmKey }),
    rotateIdentitySecret: (siteId: string) => mutate<{ secret: string }>('sites.rotateIdentitySecret', { siteId }),

    conversations: (input: ListInput) => query<ConversationPage>('conversations.list', input),
    transcript: (conversationId: string) => query<Transcript>('conversations.transcript', { conversationId }),
    markRead: (conversationId: string) => mutate<unknown>('conversations.markRead', { conversationId }),
    retry: (conversationId: string) => mutate<unknown>('conversations.retry', { conversationId }),
    rename: (conversationId: string, title: string, pin: boolean) =>
      mutate<unknown>('conversations.rename', { conversationId, title, pin }),
    retitle: (conversationId: string) => mutate<unknown>('conversations.retitle', { conversationId }),
    /** this operator holds the conversation from now: no run is claimed until they hand it back */
    takeOver: (conversationId: string) => mutate<TranscriptHead>('conversations.takeOver', { conversationId }),
    /**
     * `clientMessageId` makes a resend after a lost answer the same message; `attachmentIds`
     * are uploaded files (`uploadAttachment`) it carries, and with them `text` may be ''
     */
    reply: (input: { conversationId: string; text: string; clientMessageId: string; attachmentIds?: string[] }) =>
      mutate<TranscriptMessage>('conversations.reply', input),
    /** one file for a reply in this conversation, uploaded with its progress; a refusal is an `UploadRefusal` */
    uploadAttachment: (conversationId: string, file: File, o: UploadOptions = {}) =>
      uploadFile(new URL('files', apiBase).href, conversationId, file, o),
    /** an attachment's address (`AttachmentView.url`, relative to the API's base) as the page loads it */
    fileUrl: (url: string) => new URL(url, apiBase).href,
    handBack: (conversationId: string) => mutate<TranscriptHead>('conversations.handBack', { conversationId }),
    /** gives the conversation to an operator of its site, or to nobody (null) */
    assign: (conversationId: string, assigneeId: string | null) =>
      mutate<ConversationItem>('conversations.assign', { conversationId, assigneeId }),
    setStatus: (conversationId: string, change: StatusChange) =>
      mutate<ConversationItem>('conversations.setStatus', { conversationId, change }),
    /** an internal note: the team's only, never the visitor's or the model's */
    addNote: (conversationId: string, text: string) => mutate<Note>('conversations.addNote', { conversationId, text }),
    cannedReplies: (siteId: string) => query<CannedReply[]>('cannedReplies.list', { siteId }),
    saveCannedReply: (siteId: string, reply: { id?: string; shortcut: string; content: string }) =>
      mutate<CannedReply>('cannedReplies.save', { siteId, ...reply }),
    removeCannedReply: (siteId: string, id: string) => mutate<{ removed: true }>('cannedReplies.remove', { siteId, id }),

    /** who the conversation's visitor is: page, referrer, browser, identity, earlier conversations */
    visitorProfile: (conversationId: string) => query<VisitorProfile>('visitors.profile', { conversationId }),
    /** what erasing the conversation's visitor would remove: the counts the confirmation states */
    visitorErasure: (conversationId: string) => query<VisitorErasure>('visitors.erasure', { conversationId }),
    /** deletes everything about the conversation's visitor (every browser of an identified user); owners only */
    eraseVisitor: (conversationId: string) => mutate<ErasureResult>('visitors.erase', { conversationId }),

    knowledgeSources: (siteId: string) => query<KnowledgeSourceView[]>('knowledge.sources', { siteId }),
    addKnowledgeSource: (siteId: string, url: string) => mutate<{ id: string }>('knowledge.add', { siteId, url }),
    syncKnowledgeSource: (sourceId: string) => mutate<{ started: true }>('knowledge.sync', { sourceId }),
    removeKnowledgeSource: (sourceId: string) => mutate<{ removed: true }>('knowledge.remove', { sourceId }),
    /** a Markdown, text, HTML or PDF file, sent as base64 */
    uploadKnowledgeFile: (siteId: string, name: string, contentBase64: string) =>
      mutate<{ id: string; excerpts: number }>('knowledge.upload', { siteId, name, contentBase64 }),
    saveSnippet: (siteId: string, snippet: { id?: string; question: string; answer: string }) =>
      mutate<{ id: string }>('knowledge.saveSnippet', { siteId, ...snippet }),
    unansweredQuestions: (siteId: string) => query<UnansweredQuestions>('knowledge.unanswered', { siteId }),
    dismissUnanswered: (id: string) => mutate<{ dismissed: true }>('knowledge.dismissUnanswered', { id }),
    intentRules: (siteId: string) => query<IntentRuleView[]>('proactive.intentRules.list', { siteId }),
    saveIntentRule: (input: IntentRuleInput) => mutate<IntentRuleView>('proactive.intentRules.save', input),
    removeIntentRule: (siteId: string, id: string) => mutate<{ ok: true }>('proactive.intentRules.remove', { siteId, id }),
    apiKeys: (siteId: string) => query<ApiKeyRow[]>('proactive.apiKeys.list', { siteId }),
    createApiKey: (siteId: string, name: string) => mutate<CreatedApiKey>('proactive.apiKeys.create', { siteId, name }),
    revokeApiKey: (siteId: string, id: string) => mutate<{ ok: true }>('proactive.apiKeys.revoke', { siteId, id }),
    proactiveStats: (siteId: string, days = 7) => query<ProactiveStats>('proactive.stats', { siteId, days }),

    overview: (range: OverviewRange, siteId?: string) => query<OverviewSeries>('overview.series', siteId ? { range, siteId } : { range }),
    /** the configured model server: per model in use, the flags in force and what they turn off */
    modelStatus: () => query<ModelStatus>('model.status'),

    /**
     * Every change to a conversation of the operator's sites (optionally one site's), live over
     * SSE; a reconnect resumes after the last change received. Returns the unsubscribe.
     */
    changes: (siteId: string | undefined, h: ChangeHandlers): (() => void) => shared.listen(siteId, h),
    /** Ends the live stream now (on sign-out). */
    closeChanges: () => shared.closeNow(),
  };
}

/** The console's API client (see `createConsoleApi`). */
export type ConsoleApi = ReturnType<typeof createConsoleApi>;
