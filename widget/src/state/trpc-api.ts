import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../../api/src/trpc/app-router.ts';
import { AuthError, OfflineError, RefusedError, type HeedApi } from './heed-api.ts';
import { callProcedure, NetworkError, openStream, ServerError } from './trpc-wire.ts';
import type { VisitorEvent } from './types.ts';

type In = inferRouterInputs<AppRouter>;
type Out = inferRouterOutputs<AppRouter>;

/**
 * The real API, typed by the server's `AppRouter`: queries and mutations over HTTP with
 * `Authorization: Bearer`, the event stream over SSE. EventSource cannot send headers, so
 * each stream connection carries a short-lived stream ticket (fetched with the bearer
 * token just before connecting) in its URL, never the visitor token; every reconnect
 * resumes after the last tracked event with a new ticket (`trpc-wire.ts`). Uploads are plain
 * `POST files?…` requests whose code loads with the first one (`attach/upload-request.ts`).
 *
 * @example const api = createTrpcApi('https://chat.example.com/');
 */
export function createTrpcApi(apiBase: string): HeedApi {
  let token: string | null = null;
  const root = apiBase.endsWith('/') ? apiBase : `${apiBase}/`;
  const base = new URL('trpc', root).href;
  const auth = (): Record<string, string> => (token ? { authorization: `Bearer ${token}` } : {});
  const call = async <P extends string, T>(path: P, kind: 'query' | 'mutation', input?: unknown): Promise<T> => {
    try {
      return (await callProcedure(base, path, kind, input, auth())) as T;
    } catch (err) {
      throw classify(err);
    }
  };
  const query = <K extends keyof Out['conversation']>(name: K, input?: In['conversation'][K]) =>
    call<string, Out['conversation'][K]>(`conversation.${String(name)}`, 'query', input);

  return {
    setToken: (t) => void (token = t),
    startSession: (input: In['session']['start']) => call<string, Out['session']['start']>('session.start', 'mutation', input),
    resumeSession: (input: In['session']['resume']) => call<string, Out['session']['resume']>('session.resume', 'mutation', input),
    setContactEmail: (email, pageUrl) =>
      call<string, Out['session']['contactEmail']>('session.contactEmail', 'mutation', {
        email,
        pageUrl,
      } satisfies In['session']['contactEmail']),
    listConversations: () => query('list'),
    getConversation: (conversationId) => query('get', { conversationId }),
    createConversation: () => call<string, Out['conversation']['create']>('conversation.create', 'mutation'),
    send: (input: In['message']['send'] & { attachmentIds?: string[] }) =>
      call<string, Out['message']['send']>('message.send', 'mutation', input),
    base: root,
    upload: (input) => import('../attach/upload-request.ts').then((m) => m.uploadRequest(root, token, input)),
    typing: (conversationId, after) =>
      call<string, Out['message']['typing']>('message.typing', 'mutation', { conversationId, after } satisfies In['message']['typing']),
    continueReply: (input: In['message']['continue']) => call<string, Out['message']['continue']>('message.continue', 'mutation', input),
    retry: (conversationId) =>
      call<string, Out['message']['retry']>('message.retry', 'mutation', { conversationId } satisfies In['message']['retry']),
    markRead: (conversationId, lastAssistantAt) =>
      call<string, Out['conversation']['markRead']>('conversation.markRead', 'mutation', {
        conversationId,
        lastAssistantAt,
      } satisfies In['conversation']['markRead']),
    rename: (conversationId, title) =>
      call<string, Out['conversation']['rename']>('conversation.rename', 'mutation', {
        conversationId,
        title,
      } satisfies In['conversation']['rename']),
    setPrivate: (conversationId, value) =>
      call<string, Out['conversation']['setPrivate']>('conversation.setPrivate', 'mutation', {
        conversationId,
        private: value,
      } satisfies In['conversation']['setPrivate']),
    deleteConversation: (conversationId) =>
      call<string, Out['conversation']['delete']>('conversation.delete', 'mutation', {
        conversationId,
      } satisfies In['conversation']['delete']),
    rate: (input: In['conversation']['rate']) => call<string, Out['conversation']['rate']>('conversation.rate', 'mutation', input),
    reportPage: (page: In['visitor']['page']) => call<string, Out['visitor']['page']>('visitor.page', 'mutation', page),
    fireIntent: (name, data) =>
      call<string, Out['intent']['fire']>('intent.fire', 'mutation', { name, data } satisfies In['intent']['fire']),
    subscribe(lastEventId, handlers) {
      let connected = false;
      // unclassified, so the stream itself retries a ticket that failed for want of a network
      const ticket = async () => ({
        ticket: ((await callProcedure(base, 'events.ticket', 'mutation', undefined, auth())) as Out['events']['ticket']).ticket,
      });
      return openStream(
        base,
        'events.subscribe',
        (last) => ({ lastEventId: last }) satisfies In['events']['subscribe'],
        ticket,
        {
          onData: (data) => handlers.onEvent(data as VisitorEvent),
          onState(s) {
            if (s === 'connected') connected = true;
            handlers.onState(s === 'connected' ? 'connected' : connected ? 'reconnecting' : 'connecting');
          },
          onError: (err) => handlers.onError(classify(err)),
        },
        lastEventId,
      );
    },
  };
}

/**
 * A request that never reached the server is offline; a refusal with a reason is one the
 * store can act on; a refused token needs a new session; anything else keeps the server's
 * `data` (`code`, `retryAfterMs`) for the caller.
 */
function classify(err: unknown): unknown {
  if (err instanceof NetworkError) return new OfflineError(err.message);
  if (!(err instanceof ServerError)) return err;
  const { code, reason } = err.data;
  if (code === 'UNAUTHORIZED' && (!reason || reason === 'visitor_token_invalid')) return new AuthError(err.message);
  if ((code === 'UNAUTHORIZED' || code === 'FORBIDDEN') && reason) return new RefusedError(reason, err.message);
  return err;
}
