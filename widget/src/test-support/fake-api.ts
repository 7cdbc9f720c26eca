import type { HeedApi, SubscriptionHandlers, UploadInput, UploadRefusal } from '../state/heed-api.ts';
import type { AttachmentSettings, AttachmentView, ConversationView, MessageView, SiteBranding, VisitorEvent } from '../state/types.ts';
import type { ConversationView as FullConversation, MessageView as FullMessage } from '../../../api/src/conversations/views.ts';

let n = 0;

/**
 * A conversation view as the current server sends it, with sensible defaults; pass what the test cares about.
 * `inputNeeded: true` without an `inputRequest` brings an open question the visitor has not viewed.
 */
export function conversation(over: Partial<FullConversation> = {}): FullConversation {
  const id = over.id ?? `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;
  const base = {
    id,
    title: `Conversation ${n}`,
    titleSource: 'first_message' as const,
    excerpt: null,
    lastAssistantAt: null,
    lastReadAt: null,
    createdAt: '2026-01-01T10:00:00.000Z',
    updatedAt: '2026-01-01T10:00:00.000Z',
    live: false,
    liveRunId: null,
    inputNeeded: false,
    failed: false,
    unread: false,
    attention: 'default' as const,
    inputRequest: null,
    openTodos: [],
    waitingForPerson: false,
    heldBy: null,
    private: false,
    status: 'open' as const,
    rating: null,
  };
  const asked =
    over.inputNeeded && over.inputRequest === undefined
      ? {
          inputRequest: {
            id: `${id}-q`,
            question: 'Which one?',
            choices: [],
            allowFreeText: true,
            createdAt: over.updatedAt ?? base.updatedAt,
          },
        }
      : {};
  return { ...base, ...asked, ...over };
}

export function message(over: Partial<FullMessage> & Pick<FullMessage, 'conversationId'>): FullMessage {
  const i = ++n;
  return {
    id: `10000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    seq: String(i),
    role: 'assistant',
    content: 'Hello',
    clientMessageId: null,
    state: null,
    provenance: null,
    provenanceLabel: null,
    cutShort: false,
    sources: [],
    runId: null,
    error: null,
    createdAt: '2026-01-01T10:00:00.000Z',
    inputRequest: null,
    attachments: [],
    ...over,
  };
}

/** What a site that takes every kind answers in `session.start` (10 MB a file, 20 MB a message, 10 files). */
export const ATTACHMENTS_ON: AttachmentSettings = {
  kinds: ['png', 'jpeg', 'webp', 'gif', 'pdf', 'text'],
  maxBytes: 10 * 1024 * 1024,
  messageMaxBytes: 20 * 1024 * 1024,
  perMessage: 10,
};

/**
 * An attachment's view as the server answers an upload; its `url` relative to the API's base
 * (`FakeApi.base`), where the test server answers a real 64×40 PNG (`screenshot.png`).
 */
export function attachment(over: Partial<AttachmentView> = {}): AttachmentView {
  const id = over.id ?? `20000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;
  const mime = over.mime ?? 'image/png';
  const image = mime.startsWith('image/');
  return {
    id,
    name: 'screenshot.png',
    mime,
    kind: image ? 'image' : 'file',
    bytes: 2048,
    width: image ? 64 : null,
    height: image ? 40 : null,
    url: `widget/src/test-support/screenshot.png?id=${id}`,
    ...over,
  };
}

/** An upload refusal as the API answers it (`HeedApi.upload` rejects with it). */
export async function uploadRefusal(status: number, code: string, extra: Partial<UploadRefusal> = {}): Promise<UploadRefusal> {
  const { RefusedError } = await import('../state/heed-api.ts');
  return Object.assign(new RefusedError(code, `refused: ${code}`), { status, ...extra });
}

/**
 * An in-memory HeedApi for component tests: canned answers, recorded calls, and `emit`
 * to push events down the "subscription". The real end-to-end runs against the server.
 */
export class FakeApi implements HeedApi {
  conversations: ConversationView[] = [];
  messages = new Map<string, MessageView[]>();
  calls: { method: string; args: unknown[] }[] = [];
  handlers: SubscriptionHandlers | null = null;
  /** make the next sends fail as if offline */
  offline = false;
  token: string | null = null;
  /** what `startSession` says about the site (branding included) */
  site: SiteBranding;
  /** where the files' addresses resolve: the test server (see `attachment`) */
  readonly base = `${location.origin}/`;

  constructor(init: { conversations?: ConversationView[]; site?: Partial<SiteBranding> } = {}) {
    this.conversations = init.conversations ?? [];
    this.site = { name: 'Test site', ...init.site };
  }

  private record(method: string, ...args: unknown[]) {
    this.calls.push({ method, args });
  }

  callsOf(method: string) {
    return this.calls.filter((c) => c.method === method).map((c) => c.args);
  }

  setToken(token: string | null) {
    this.token = token;
  }

  async startSession(input: { siteKey: string; visitorToken?: string; identity?: { userId: string } }) {
    this.record('startSession', input);
    return {
      visitorToken: input.visitorToken ?? 'token-1',
      visitorId: 'v1',
      timeZone: 'UTC',
      site: this.site,
      resumed: !!input.visitorToken,
      userId: input.identity?.userId ?? null,
      emailReplies: this.emailReplies,
    };
  }

  /** what `resumeSession` does: the visitor and conversation the link names, or a refusal (the default) */
  resumeAnswer: (input: { resumeToken: string }) => Promise<{ visitorId: string; conversationId: string }> = async () => {
    const { RefusedError } = await import('../state/heed-api.ts');
    throw new RefusedError('resume_token_invalid', 'This link is not valid any more.');
  };

  async resumeSession(input: { siteKey: string; resumeToken: string; identity?: { userId: string } }) {
    this.record('resumeSession', input);
    const { visitorId, conversationId } = await this.resumeAnswer(input);
    return {
      visitorToken: `token-${visitorId}`,
      visitorId,
      timeZone: 'UTC',
      site: this.site,
      resumed: true,
      userId: null,
      emailReplies: true,
      conversationId,
    };
  }

  /** whether this server emails replies (what `startSession` says), and what `setContactEmail` does */
  emailReplies = false;
  contactAnswer: (email: string | null) => Promise<{ contactEmail: string | null }> = async (email) => ({ contactEmail: email });

  async setContactEmail(email: string | null, pageUrl: string) {
    this.record('setContactEmail', email, pageUrl);
    await this.hold;
    return this.contactAnswer(email);
  }

  async listConversations() {
    this.record('listConversations');
    return { cursor: '7', conversations: this.conversations };
  }

  async getConversation(conversationId: string) {
    this.record('getConversation', conversationId);
    const c = this.conversations.find((x) => x.id === conversationId)!;
    return { cursor: '7', conversation: c, messages: this.messages.get(conversationId) ?? [] };
  }

  async createConversation() {
    this.record('createConversation');
    const c = conversation({ title: null });
    this.conversations = [c, ...this.conversations];
    return c;
  }

  /** resolves the next sends only when the test calls the function it holds (a slow network) */
  hold: Promise<void> | null = null;

  async send(input: {
    conversationId: string;
    clientMessageId: string;
    content: string;
    answersRequestId?: string;
    attachmentIds?: string[];
  }) {
    this.record('send', input);
    const { OfflineError } = await import('../state/heed-api.ts');
    await this.hold;
    if (this.offline) throw new OfflineError('Failed to fetch');
    const { answersRequestId: _, attachmentIds = [], ...row } = input;
    return message({
      ...row,
      role: 'user',
      state: 'pending',
      attachments: attachmentIds.map((id) => this.uploaded.get(id) ?? attachment({ id })),
    });
  }

  /** uploads wait on this before answering (a slow network), after saying half their bytes went */
  uploadHold: Promise<void> | null = null;
  /** what a released upload answers: the file taken (its view), unless a test refuses it */
  uploadAnswer: (input: UploadInput) => Promise<AttachmentView> = async (input) =>
    attachment({ name: input.name, bytes: input.file.size, mime: input.file.type || 'application/octet-stream' });
  /** the views of the uploads answered, by id (a send's `attachmentIds` become its message's files) */
  uploaded = new Map<string, AttachmentView>();
  /** names of the uploads aborted */
  aborted: string[] = [];

  async upload(input: UploadInput) {
    this.record('upload', { conversationId: input.conversationId, name: input.name, bytes: input.file.size });
    input.onProgress?.(Math.round(input.file.size / 2));
    await new Promise<void>((resolve, reject) => {
      const abort = () => {
        this.aborted.push(input.name);
        reject(new DOMException('The upload was aborted', 'AbortError'));
      };
      if (input.signal?.aborted) return abort();
      input.signal?.addEventListener('abort', abort, { once: true });
      void Promise.resolve(this.uploadHold).then(() => {
        input.signal?.removeEventListener('abort', abort);
        resolve();
      });
    });
    const view = await this.uploadAnswer(input);
    input.onProgress?.(input.file.size);
    this.uploaded.set(view.id, view);
    return view;
  }

  async typing(conversationId: string, after: string) {
    this.record('typing', conversationId, after);
    return { held: true };
  }

  async continueReply(input: { conversationId: string; messageId: string; clientMessageId: string }) {
    this.record('continueReply', input);
    await this.hold;
    return message({
      conversationId: input.conversationId,
      clientMessageId: input.clientMessageId,
      role: 'user',
      content: '',
      state: 'pending',
      provenance: 'continue',
    });
  }

  async retry(conversationId: string) {
    this.record('retry', conversationId);
    return { requeued: 1 };
  }

  async markRead(conversationId: string, lastAssistantAt: string) {
    this.record('markRead', conversationId, lastAssistantAt);
    const c = this.conversations.find((x) => x.id === conversationId)!;
    return { ...c, lastReadAt: lastAssistantAt };
  }

  async rename(conversationId: string, title: string) {
    this.record('rename', conversationId, title);
    const c = { ...this.conversations.find((x) => x.id === conversationId)!, title, titleSource: 'manual' as const };
    this.conversations = this.conversations.map((x) => (x.id === conversationId ? c : x));
    return c;
  }

  /** make the next `setPrivate` calls fail as the server would refuse them */
  refusePrivate = false;

  async setPrivate(conversationId: string, value: boolean) {
    this.record('setPrivate', conversationId, value);
    await this.hold;
    if (this.refusePrivate) throw new Error('Internal server error');
    const c = { ...this.conversations.find((x) => x.id === conversationId)!, private: value };
    this.conversations = this.conversations.map((x) => (x.id === conversationId ? c : x));
    return c;
  }

  /** what `deleteConversation` does after `hold`: deletes (the default), or fails as a test makes it */
  deleteAnswer: (conversationId: string) => Promise<unknown> = async (conversationId) => {
    this.conversations = this.conversations.filter((x) => x.id !== conversationId);
    return { deleted: true };
  };

  async deleteConversation(conversationId: string) {
    this.record('deleteConversation', conversationId);
    await this.hold;
    return this.deleteAnswer(conversationId);
  }

  /** make the next `rate` calls fail as the server would refuse them */
  refuseRating = false;

  async rate(input: { conversationId: string; rating: 1 | -1; comment?: string }) {
    this.record('rate', input);
    await this.hold;
    if (this.refuseRating) throw new Error('Internal server error');
    const c = { ...this.conversations.find((x) => x.id === input.conversationId)!, rating: input.rating };
    this.conversations = this.conversations.map((x) => (x.id === input.conversationId ? c : x));
    return c;
  }

  /** what `reportPage` does: answer (the default: stored) or fail */
  pageAnswer: () => Promise<unknown> = async () => ({ stored: true });

  async reportPage(page: { url: string; title: string }) {
    this.record('reportPage', page);
    return this.pageAnswer();
  }

  /** what `fireIntent` does: answer (the default: queued) or fail */
  intentAnswer: () => Promise<{ status: 'queued' | 'ignored' }> = async () => ({ status: 'queued' });

  async fireIntent(name: string, data?: unknown) {
    this.record('fireIntent', name, data);
    return this.intentAnswer();
  }

  subscribe(lastEventId: string | null, handlers: SubscriptionHandlers) {
    this.record('subscribe', lastEventId);
    this.handlers = handlers;
    queueMicrotask(() => handlers.onState('connected'));
    return () => void (this.handlers = null);
  }

  /** Delivers an event as the server would (an older server's views lack the input-request fields). */
  emit(event: VisitorEvent | { type: 'conversation.updated'; conversationId: string; conversation: ConversationView }) {
    this.handlers?.onEvent(event as VisitorEvent);
  }
}

/** Waits for pending promises and Lit updates to settle. */
export const settle = () => new Promise((r) => setTimeout(r, 0));

/** Every element matching `selector` in `root` and in all the shadow roots below it. */
export function deepQueryAll(root: Element | Document | ShadowRoot, selector: string): Element[] {
  const found: Element[] = [];
  const walk = (node: Element | Document | ShadowRoot) => {
    found.push(...node.querySelectorAll(selector));
    for (const el of node.querySelectorAll('*')) if (el.shadowRoot) walk(el.shadowRoot);
  };
  walk(root);
  return found;
}

/** Pretends the page is shown or hidden, firing `visibilitychange`; call with null to restore. */
export function setVisibility(state: DocumentVisibilityState | null): void {
  if (state === null) delete (document as { visibilityState?: unknown }).visibilityState;
  else Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
  document.dispatchEvent(new Event('visibilitychange'));
}
