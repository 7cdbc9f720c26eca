import { createTRPCClient, httpLink, httpSubscriptionLink, splitLink, TRPCClientError, type TRPCClient } from '@trpc/client';
import type { AppRouter } from '../../../api/src/trpc/app-router.ts';
import { AuthError, OfflineError, RefusedError, type HeedApi } from './heed-api.ts';
import type { VisitorEvent } from './types.ts';

/**
 * The real API: queries and mutations over HTTP with `Authorization: Bearer`, the event
 * stream over SSE. EventSource cannot send headers, so each stream connection carries a
 * short-lived stream ticket (fetched with the bearer token just before connecting) in its
 * URL, never the visitor token. tRPC's subscription link remembers the last tracked id and
 * resumes from it on every reconnect; a reconnect whose ticket expired meanwhile is
 * refused, and the stream is opened again from that id with a new ticket.
 *
 * @example const api = createTrpcApi('https://chat.example.com/');
 */
export function createTrpcApi(apiBase: string): HeedApi {
  let token: string | null = null;
  const url = new URL('trpc', apiBase.endsWith('/') ? apiBase : `${apiBase}/`).href;
  const trpc: TRPCClient<AppRouter> = createTRPCClient<AppRouter>({
    links: [
      splitLink({
        condition: (op) => op.type === 'subscription',
        true: httpSubscriptionLink({ url, connectionParams: async (): Promise<{ ticket: string }> => ({ ticket: (await trpc.events.ticket.mutate()).ticket }) }),
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
      let last = lastEventId;
      let sub: { unsubscribe(): void };
      const open = () =>
        (sub = trpc.events.subscribe.subscribe(
          { lastEventId: last },
          {
            onData: (raw) => {
              const r = raw as { id?: unknown };
              if (typeof r.id === 'string') last = r.id;
              handlers.onEvent(unwrap(raw));
            },
            onConnectionStateChange(s) {
              if (s.state === 'pending') connected = true;
              handlers.onState(s.state === 'pending' ? 'connected' : connected ? 'reconnecting' : 'connecting');
            },
            onError: (err) => {
              const e = classify(err);
              if (e instanceof RefusedError && e.reason === 'stream_ticket_invalid') return void open();
              handlers.onError(e);
            },
          },
        ));
      open();
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

/**
 * A client error without a server shape never reached the server; a refusal with a
 * reason is one the store can act on; a refused token needs a new session.
 */
function classify(err: unknown): unknown {
  if (!(err instanceof TRPCClientError)) return err;
  if (!err.data) return new OfflineError(err.message);
  const reason = (err.data as { reason?: unknown }).reason;
  if (err.data.code === 'UNAUTHORIZED' && (!reason || reason === 'visitor_token_invalid')) return new AuthError(err.message);
  if ((err.data.code === 'UNAUTHORIZED' || err.data.code === 'FORBIDDEN') && typeof reason === 'string') return new RefusedError(reason, err.message);
  return err;
}
