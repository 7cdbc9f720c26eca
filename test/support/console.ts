import { randomUUID } from 'node:crypto';
import { createTRPCClient, httpBatchLink, httpSubscriptionLink, splitLink } from '@trpc/client';
import { EventSource } from 'eventsource';
import type { OperatorRole } from '../../api/src/db/generated/client.ts';
import { CONSOLE_COOKIE, createOperatorSession } from '../../api/src/operators/operator-sessions.ts';
import { siteChoiceData, type SiteChoice } from '../../api/src/operators/site-access.ts';
import type { Services } from '../../api/src/services.ts';
import type { Client } from './harness.ts';
import { MAX_BATCH_SIZE } from '../../api/src/http/server.ts';
import type { AppRouter } from '../../api/src/trpc/app-router.ts';

/** A signed-in console user for tests: the operator row, its cookie and a client that sends it. */
export interface TestOperator {
  id: string;
  email: string;
  role: OperatorRole;
  /** `heed_console=<token>` */
  cookie: string;
  /** a tRPC client sending the cookie and the console's own `Origin` (as the console page does) */
  api: Client;
}

/**
 * Creates an operator and a session for it directly in the database (no password: the
 * sign-in procedure is tested on its own), and a client that acts as the console page.
 * An agent acts on every site unless `sites` names theirs (sites are explicit: see
 * api/src/operators/site-access.ts).
 */
export async function signedInOperator(
  services: Services,
  url: string,
  opts: { role?: OperatorRole; email?: string; name?: string; sites?: SiteChoice } = {},
): Promise<TestOperator> {
  const role = opts.role ?? 'owner';
  const email = opts.email ?? `${role}-${randomUUID().slice(0, 8)}@example.test`;
  const operator = await services.db.operator.create({
    data: { email, name: opts.name ?? `Test ${role}`, role, ...siteChoiceData(opts.sites ?? 'all') },
    select: { id: true },
  });
  const { token } = await createOperatorSession(services.db, operator.id);
  const cookie = `${CONSOLE_COOKIE}=${token}`;
  return { id: operator.id, email, role, cookie, api: consoleClient(url, cookie) };
}

/**
 * A tRPC client as the console page makes one: the session cookie on every request and the
 * page's own origin, for queries, mutations and the event stream alike.
 */
export function consoleClient(url: string, cookie: string | null, origin: string = url): Client {
  const headers = { ...(cookie ? { cookie } : {}), origin };
  return createTRPCClient<AppRouter>({
    links: [
      splitLink({
        condition: (op) => op.type === 'subscription',
        true: httpSubscriptionLink({
          url: `${url}/trpc`,
          EventSource,
          eventSourceOptions: () => ({
            fetch: (input: string | URL | Request, init?: RequestInit) =>
              fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), ...headers } }),
          }),
        }),
        false: httpBatchLink({ url: `${url}/trpc`, maxItems: MAX_BATCH_SIZE, headers }),
      }),
    ],
  });
}
