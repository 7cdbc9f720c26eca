import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createTRPCClient, httpBatchLink, httpSubscriptionLink, splitLink, type TRPCClient } from '@trpc/client';
import { EventSource } from 'eventsource';
import { loadConfig, type Config } from '../../api/src/config.ts';
import { createServices, type Services } from '../../api/src/services.ts';
import { memoryDestination } from '../../api/src/logging/memory-destination.ts';
import { createHttpServer, MAX_BATCH_SIZE } from '../../api/src/http/server.ts';
import { siteRoutes } from '../../api/src/http/site-routes.ts';
import { createReplyWorker } from '../../api/src/chat/schedule/start-worker.ts';
import type { ReplyWorker } from '../../api/src/chat/schedule/worker.ts';
import type { AnswerOutcome } from '../../api/src/chat/run/answer-batch.ts';
import { startModelServer, type ModelServer } from '../../api/src/model-server/server.ts';
import type { AppRouter } from '../../api/src/trpc/app-router.ts';
import type { VisitorEvent } from '../../api/src/events/event-types.ts';
import { runTitlePass, type TitlePassResult } from '../../api/src/titles/title-pass.ts';
import { titleSettings, type TitleSettings } from '../../api/src/titles/title-settings.ts';
import { createTestDatabase, type TestDatabase } from './database.ts';
import { isEmbeddedTestRun, testRedisUrl } from './stores.ts';
import { mkdtempSync } from 'node:fs';
import { setTimeout as pollPause } from 'node:timers/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDemoShop } from '../../demo/server.ts';
import { UNLIMITED_RATE_LIMITS } from './unlimited-limits.ts';

export interface HeedOptions {
  /** in-process reply workers to start (default 1) */
  workers?: number;
  /** also serve the widget bundle, and the demo shop on its own origin, as `npm start` does */
  site?: boolean;
  /** host name in the demo shop's URL (default 127.0.0.1, the API's); `localhost` makes them cross-site too */
  shopHost?: string;
  env?: Partial<Record<keyof Config, string>>;
}

/**
 * A whole Heed stack for one test file: its own database (from the migrated template),
 * its own Redis key prefix, the local model server, an HTTP server on a free port, and
 * in-process workers. Everything real; nothing mocked.
 */
export class TestHeed {
  readonly runs: { conversationId: string; outcome: AnswerOutcome }[] = [];
  workers: ReplyWorker[] = [];
  /** the API's origin, e.g. http://127.0.0.1:41234 */
  url = '';
  /** the demo shop's origin (with `site`): another port, and optionally another host name */
  shopUrl = '';
  siteKey = `site-${randomUUID().slice(0, 8)}`;

  private constructor(
    readonly database: TestDatabase,
    readonly model: ModelServer,
    readonly config: Config,
    readonly services: Services,
    readonly server: Server,
    readonly shop: Server | null,
    /** what the services logged (run failures, lost leases): one JSON line each, as production prints them */
    readonly logs: string[],
  ) {}

  static async start(opts: HeedOptions = {}): Promise<TestHeed> {
    const database = await createTestDatabase();
    const model = await startModelServer();
    const config = loadConfig({
      NODE_ENV: 'test',
      DATABASE_URL: database.url,
      REDIS_URL: testRedisUrl(),
      REDIS_PREFIX: `heed-test:${randomUUID().slice(0, 8)}:`,
      OPENAI_BASE_URL: model.url,
      OPENAI_API_KEY: 'test-key',
      OPENAI_MODEL: 'test-model',
      DEBOUNCE_MS: '300',
      // a test's sends fold as they did before typing mattered: a whole debounce after each
      // send, typing or not; the typing-aware debounce's own tests set their settle
      SEND_SETTLE_MS: opts.env?.DEBOUNCE_MS ?? '300',
      MAX_WAIT_MS: '3000',
      LEASE_MS: '3000',
      WORKER_POLL_MS: '200',
      MODEL_TIMEOUT_MS: '5000',
      // a silent model times out at the test's MODEL_TIMEOUT_MS, unless it sets the first-token wait apart
      MODEL_FIRST_TOKEN_TIMEOUT_MS: opts.env?.MODEL_TIMEOUT_MS ?? '5000',
      // titles run only when a test runs a pass (heed.titlePass), so model requests stay predictable
      TITLE_PASS_MS: '0',
      // rate limits far above what any test does, so tests measure the pipeline; the limits' own tests set theirs
      RATE_LIMITS: UNLIMITED_RATE_LIMITS,
      // the embedded mode keeps attachments in its data folder: each stack its own
      HEED_DATA_DIR: mkdtempSync(join(tmpdir(), 'heed-test-data-')),
      ...opts.env,
    });
    // every log line as production would print it (JSON, redacted), kept in memory
    const logTo = memoryDestination();
    const logs = logTo.lines;
    const services = await createServices(config, { logTo, embeddedDatabase: isEmbeddedTestRun() });
    // the shop embeds the widget from the API's URL, known once the API listens
    let apiUrl = '';
    const shop = opts.site ? createDemoShop({ siteKey: 'demo', heedUrl: () => `${apiUrl}/` }) : null;
    const shopPort = shop ? await listen(shop) : undefined;
    const server = await createHttpServer(
      services,
      opts.site ? siteRoutes({ demoPort: shopPort, production: config.NODE_ENV === 'production' }) : undefined,
    );
    apiUrl = `http://127.0.0.1:${await listen(server)}`;
    const heed = new TestHeed(database, model, config, services, server, shop, logs);
    heed.url = apiUrl;
    // the demo pages embed the widget with the demo site key
    if (opts.site) {
      heed.siteKey = 'demo';
      heed.shopUrl = `http://${opts.shopHost ?? '127.0.0.1'}:${shopPort}`;
    }
    await services.db.site.create({ data: { key: heed.siteKey, name: 'Test site' } });
    for (let i = 0; i < (opts.workers ?? 1); i++) await heed.startWorker();
    return heed;
  }

  async startWorker(): Promise<ReplyWorker> {
    const worker = createReplyWorker(this.services, { onRun: (conversationId, outcome) => this.runs.push({ conversationId, outcome }) });
    await worker.start();
    this.workers.push(worker);
    return worker;
  }

  /** Stops the in-process workers (a test that drives claims itself, or wants none to run). */
  async stopWorkers(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.stop()));
    this.workers = [];
  }

  /** Environment for a worker in a child process (`npm run worker`) sharing this stack. */
  childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
    const env = Object.fromEntries(
      Object.entries(this.config)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, String(v)]),
    );
    return { PATH: process.env.PATH, HOME: process.env.HOME, ...env, ...extra };
  }

  /** Runs one title pass now, as the timer and the cron route do; `settings` override the configured ones. */
  titlePass(settings: Partial<TitleSettings> = {}, opts: { signal?: AbortSignal } = {}): Promise<TitlePassResult> {
    return runTitlePass(this.services, { ...titleSettings(this.config), ...settings }, opts);
  }

  /** A new anonymous visitor with its own tRPC client. */
  async visitor(timeZone = 'Europe/Paris'): Promise<TestVisitor> {
    const anon = makeClient(this.url, null);
    const session = await anon.session.start.mutate({ siteKey: this.siteKey, timeZone });
    return new TestVisitor(this, session.visitorToken, session.visitorId);
  }

  /** Waits until `check` returns a truthy value (polling), or fails with `what`. */
  until<T>(
    what: string,
    check: () => Promise<T | null | undefined | false> | T | null | undefined | false,
    timeoutMs = 15_000,
  ): Promise<T> {
    return waitUntil(what, check, timeoutMs);
  }

  /** Event streams this stack holds open (`heed_sse_connections`): a stream counts once its slot is taken. */
  async openStreams(): Promise<number> {
    return (await this.services.metrics.sseConnections.get()).values[0]?.value ?? 0;
  }

  /** Resolves once `count` more event streams than `before` are open: the point a test's send is heard live. */
  streamOpened(before: number, count = 1): Promise<number> {
    return this.until('event streams to open', async () => {
      const open = await this.openStreams();
      return open >= before + count && open;
    });
  }

  async stop(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.stop()));
    for (const server of [this.server, this.shop]) {
      server?.closeAllConnections();
      await new Promise((r) => (server ? server.close(r) : r(undefined)));
    }
    await this.model.close();
    await this.services.close();
    await this.database.drop();
  }
}

/** Listens on a free port of 127.0.0.1 and returns it. */
export async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

export type Client = TRPCClient<AppRouter>;

/**
 * A tRPC client as the widget makes one: the bearer token on queries and mutations, and a
 * fresh stream ticket (`events.ticket`) for every event-stream connection.
 */
export function makeClient(url: string, token: string | null): Client {
  const client: Client = createTRPCClient<AppRouter>({
    links: [
      splitLink({
        condition: (op) => op.type === 'subscription',
        true: httpSubscriptionLink({
          url: `${url}/trpc`,
          EventSource,
          connectionParams: async (): Promise<Record<string, string>> =>
            token ? { ticket: (await client.events.ticket.mutate()).ticket } : {},
        }),
        false: httpBatchLink({ url: `${url}/trpc`, maxItems: MAX_BATCH_SIZE, headers: token ? { authorization: `Bearer ${token}` } : {} }),
      }),
    ],
  });
  return client;
}

/** Unwraps what the subscription delivers: tracked events arrive as `{ id, data }`. */
export function unwrapEvent(raw: unknown): VisitorEvent {
  const r = raw as { id?: string; data?: VisitorEvent } & VisitorEvent;
  return r.data && typeof r.id === 'string' ? r.data : r;
}

export class TestVisitor {
  readonly api: Client;

  constructor(
    readonly heed: TestHeed,
    readonly token: string,
    readonly visitorId: string,
  ) {
    this.api = makeClient(heed.url, token);
  }

  async conversation(): Promise<string> {
    return (await this.api.conversation.create.mutate()).id;
  }

  send(conversationId: string, content: string, clientMessageId: string = randomUUID()) {
    return this.api.message.send.mutate({ conversationId, clientMessageId, content });
  }

  /** Subscribes and collects every event; `close()` ends the subscription. */
  subscribe(lastEventId: string | null = null): EventLog {
    const log = new EventLog();
    const sub = this.api.events.subscribe.subscribe(
      { lastEventId },
      {
        onData: (raw) => log.add(unwrapEvent(raw)),
        onError: (err) => log.errors.push(err),
      },
    );
    log.close = () => sub.unsubscribe();
    return log;
  }
}

export class EventLog {
  readonly events: VisitorEvent[] = [];
  readonly errors: unknown[] = [];
  close: () => void = () => {};

  durable() {
    return this.events.filter((e) => e.eventId !== undefined);
  }

  /** told of each event as it arrives */
  private readonly waiters = new Set<() => void>();

  /** Records an event and wakes whoever waits for one. */
  add(event: VisitorEvent): void {
    this.events.push(event);
    for (const wake of this.waiters) wake();
  }

  /** The first event (received or still to come) that matches, woken by each arrival; fails after `timeoutMs`. */
  waitFor(predicate: (e: VisitorEvent) => boolean, timeoutMs = 15_000): Promise<VisitorEvent> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const hit = this.events.find(predicate);
        if (!hit) return;
        done();
        resolve(hit);
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`event not received; got ${this.events.map((e) => e.type).join(', ')}`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(check);
      };
      this.waiters.add(check);
      check();
    });
  }
}

/** How often {@link waitUntil} samples a condition it cannot be told about. */
const POLL_MS = 25;

/** Polls `check` every 25 ms until it returns a truthy value, or fails with `what` after `timeoutMs`. */
export async function waitUntil<T>(
  what: string,
  check: () => Promise<T | null | undefined | false> | T | null | undefined | false,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    // the condition lives in another process (a database row, a server's state): it is sampled
    await pollPause(POLL_MS);
  }
}
