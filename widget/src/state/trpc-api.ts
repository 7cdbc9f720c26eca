import { createTRPCClient, httpLink, httpSubscriptionLink, splitLink, TRPCClientError } from '@trpc/client';
import type { AppRouter } from '../../../api/src/trpc/app-router.ts';
import { AuthError, OfflineError, type HeedApi } from './heed-api.ts';
import type { VisitorEvent } from './types.ts';

/**
 * The real API: queries and mutations over HTTP batch with `Authorization: Bearer`, the
 * event stream over SSE with the token as a connection param (EventSource cannot send
 * headers). tRPC's subscription link remembers the last tracked id and resumes from it
 * on every reconnect, so the store never has to.
 *
 * @example const api = createTrpcApi('https://chat.example.com/');
 */
export function createTrpcApi(apiBase: string): HeedApi {
  let token: string | null = null;
  const url = new URL('trpc', apiBase.endsWith('/') ? apiBase : `${apiBase}/`).href;
  const trpc = createTRPCClient<AppRouter>({
    links: [
      splitLink({
        condition: (op) => op.type === 'subscription',
        true: httpSubscriptionLink({ url, connectionParams: () => (token ? { token } : {}) }),
        false: httpLink({ url, headers: () => (token ? { authorization: `Bearer ${token}` } : {}) }),
      }),
    ],
  });

  return {
    setToken: (t) => void (token = t),
    startSession: (input) => call(() => trpc.session.start.mutate(input)),
    listConversations: () => call(() => trpc.conversation.list.query()),
    getConversation: (conversationId) => call(() => trpc.conversation.get.query({ conversationId })),
    createConversation: () => call(() => trpc.conversation.create.mutate()),
    send: (input) => call(() => trpc.message.send.mutate(input)),
    retry: (conversationId) => call(() => trpc.message.retry.mutate({ conversationId })),
    markRead: (conversationId, lastAssistantAt) => call(() => trpc.conversation.markRead.mutate({ conversationId, lastAssistantAt })),
    rename: (conversationId, title) => call(() => trpc.conversation.rename.mutate({ conversationId, title })),
    subscribe(lastEventId, handlers) {
      let connected = false;
      const sub = trpc.events.subscribe.subscribe(
        { lastEventId },
        {
          onData: (raw) => handlers.onEvent(unwrap(raw)),
          onConnectionStateChange(s) {
            if (s.state === 'pending') connected = true;
            handlers.onState(s.state === 'pending' ? 'connected' : connected ? 'reconnecting' : 'connecting');
          },
          onError: (err) => handlers.onError(classify(err)),
        },
      );
      return () => sub.unsubscribe();
    },
  };
}

/** Tracked events arrive as `{ id, data }`; reply deltas and snapshots arrive bare. */
function unwrap(raw: unknown): VisitorEvent {
  const r = raw as { id?: unknown; data?: VisitorEvent } & VisitorEvent;
  return r.data && typeof r.id === 'string' ? r.data : r;
}

async function call<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw classify(err);
  }
}

/** A client error without a server shape never reached the server. */
function classify(err: unknown): unknown {
  if (!(err instanceof TRPCClientError)) return err;
  if (!err.data) return new OfflineError(err.message);
  if (err.data.code === 'UNAUTHORIZED') return new AuthError(err.message);
  return err;
}
