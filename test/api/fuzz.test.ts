import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { appRouter } from '../../api/src/trpc/app-router.ts';
import { TestHeed, type TestVisitor } from '../support/harness.ts';
import { signedInOperator, type TestOperator } from '../support/console.ts';
import { findOperatorSession } from '../../api/src/operators/operator-sessions.ts';
import { fuzzSeed } from '../support/fuzz-seed.ts';

/**
 * Property-based fuzzing of everything the API exposes: generated and malformed inputs to
 * every procedure (taken from the router, so a new one is fuzzed without touching this
 * file), with no credential, a visitor's, the operator's, a console owner's session and garbage; the cron route;
 * the site-messages route with its site's API key; and
 * raw HTTP (wrong methods, bad JSON, huge bodies, bad batch strings, unknown paths, `?input=`
 * garbage, bad `%` escapes, request targets no URL parser takes). Whatever arrives:
 *
 * - never a 5xx, and never an INTERNAL_SERVER_ERROR inside an SSE stream;
 * - never a hang: every request answers within HANG_MS (a hang detector, not a speed test);
 * - the process stays healthy: /healthz answers 200 afterwards and nothing was logged as failed.
 *
 * Runs are bounded (RUNS per property, RUNS_PER_PROCEDURE per procedure, each property cut
 * after TIME_LIMIT_MS on a slow machine); the seed is fixed (`FUZZ_SEED=random` draws one,
 * `FUZZ_SEED=<n>` replays a reported failure: test/support/fuzz-seed.ts).
 */
const ADMIN_TOKEN = 'fuzz-admin-token-7f3a9c1e5b2d4f60';
const CRON_SECRET = 'fuzz-cron-secret-2b8e6d0a4c9f1e37';
const RUNS = 150;
const RUNS_PER_PROCEDURE = 100;
/** On a loaded machine a property stops early rather than stretch the file past a minute. */
const TIME_LIMIT_MS = 6_000;
const TIME_LIMIT_PER_PROCEDURE_MS = 3_000;
const HANG_MS = 15_000;
const seed = fuzzSeed('api');
const params = { numRuns: RUNS, seed, plugins: [fc.interruptAfterTimeLimit(TIME_LIMIT_MS)] };

let heed: TestHeed;
let visitor: TestVisitor;
let own: string;
let others: string;
/** a console owner, on a site of the fuzzer's own (so what it deletes or changes is not the visitors') */
let owner: TestOperator;
let ownerSiteId: string;

beforeAll(async () => {
  // `site`: the widget's static routes are fuzzed too
  heed = await TestHeed.start({ workers: 0, site: true, env: { ADMIN_TOKEN, CRON_SECRET } });
  visitor = await heed.visitor();
  own = await visitor.conversation();
  await visitor.send(own, 'A first message, so titles and history exist.');
  const other = await heed.visitor();
  others = await other.conversation();
  owner = await signedInOperator(heed.services, heed.url);
  ownerSiteId = (await owner.api.console.sites.create.mutate({ name: 'Fuzzed site', allowedOrigins: ['https://fuzz.example'] })).id;
});
afterAll(() => heed?.stop());

// ---------------------------------------------------------------------------------------
// Generators

const procedures = Object.entries(appRouter._def.procedures as unknown as Record<string, Procedure>).map(([path, p]) => ({
  path,
  type: p._def.type,
  ...fieldsOf(p),
}));

interface Procedure {
  _def: { type: 'query' | 'mutation' | 'subscription'; inputs: unknown[] };
}

type Schema = { shape?: Record<string, { safeParse: (v: unknown) => { success: boolean } }>; unwrap?: () => Schema };

/** The field names of a procedure's input object (through `.optional()`), and which are required, from its zod schema. */
function fieldsOf(p: Procedure): { fields: string[]; required: string[] } {
  let schema = p._def.inputs[0] as Schema | undefined;
  while (schema && !schema.shape && typeof schema.unwrap === 'function') schema = schema.unwrap();
  const shape = schema?.shape ?? {};
  return { fields: Object.keys(shape), required: Object.keys(shape).filter((k) => !shape[k]!.safeParse(undefined).success) };
}

/** Strings chosen to break things: what PostgreSQL, BigInt, Date and URL parsing choke on. */
const nastyStrings = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\uffff',
  '😀'.repeat(50),
  '%',
  '%E0%A4%A',
  '../../etc/passwd',
  "1' OR '1'='1",
  '0000-01-01T00:00:00Z',
  '-004714-11-23T00:00:00Z',
  '+275760-09-13T00:00:00Z',
  '9999-12-31T23:59:59Z',
  '2024-02-30T00:00:00Z',
  '9223372036854775807',
  '9223372036854775808',
  '99999999999999999999',
  '-1',
  '1e308',
  'NaN',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  '__proto__',
  'Mars/Olympus_Mons',
  'x'.repeat(300),
  'x'.repeat(4001),
  'x'.repeat(20_000),
];

const anyString = fc.oneof(
  fc.constantFrom(...nastyStrings),
  fc.string({ maxLength: 80 }),
  fc.string({ unit: 'binary', maxLength: 80 }),
  fc.uuid(),
);

/** Moments at the edges: year 0000 (ISO-valid, refused by PostgreSQL), early years, and any a JS Date can hold. */
const anyDate = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '0000-01-01T00:00:00Z',
      '0000-12-31T23:59:59.999+14:00',
      '0000-06-15T12:00:00-05:00',
      '1999-12-31T23:59:59Z',
      '9999-12-31T23:59:59-12:00',
      '2024-02-30T00:00:00Z',
    ),
  },
  {
    weight: 1,
    arbitrary: fc
      .date({ min: new Date('0000-01-01T00:00:00Z'), max: new Date('0100-01-01T00:00:00Z'), noInvalidDate: true })
      .map((d) => d.toISOString()),
  },
  { weight: 1, arbitrary: fc.date({ min: new Date(-8.64e15), max: new Date(8.64e15), noInvalidDate: true }).map((d) => d.toISOString()) },
);

/** Event ids around what a PostgreSQL bigint holds (2^63 - 1), and far beyond. */
const anyEventId = fc
  .oneof(
    fc.bigInt({ min: 2n ** 63n - 50n, max: 10n ** 19n - 1n }),
    fc.bigInt({ min: -10n, max: 2n ** 70n }),
    fc.constantFrom(2n ** 63n - 1n, 2n ** 63n, 2n ** 64n),
  )
  .map(String);

/** A value that comes later than the generator is built (the stack starts in beforeAll). */
const late = <T>(value: () => T) => fc.constant(null).map(() => value());

/** Ids that point somewhere: this visitor's conversation, another visitor's, nobody's. */
const anyId = fc.oneof(
  late(() => own),
  late(() => others),
  fc.uuid(),
  anyString,
);

const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: anyString },
  fc.integer(),
  fc.double(),
  fc.constantFrom(null, true, false, 0, -1, 2 ** 53, 1e308),
  fc.jsonValue({ maxDepth: 2 }),
);

/** Per field: a value the API accepts, and values aimed at what that field feeds (a date column, a bigint). */
const fieldValues: Record<string, { valid: fc.Arbitrary<unknown>; aimed?: fc.Arbitrary<unknown> }> = {
  siteKey: { valid: late(() => heed.siteKey) },
  siteId: { valid: late(() => ownerSiteId), aimed: anyId },
  visitorToken: { valid: late(() => visitor.token) },
  timeZone: { valid: fc.constantFrom('Europe/Paris', 'UTC', 'America/New_York') },
  identity: {
    valid: fc.constant({ userId: 'user-1', userHash: '0'.repeat(64) }),
    aimed: fc.record({ userId: anyString, token: anyString }),
  },
  conversationId: { valid: late(() => own), aimed: anyId },
  answersRequestId: { valid: fc.uuid(), aimed: anyId },
  clientMessageId: { valid: fc.uuid() },
  content: { valid: fc.constantFrom('Hello there', 'Where is my order?') },
  title: { valid: fc.constantFrom('A title', 'Order 1234') },
  // session.start's referrer (no `url` here: console.knowledge.add would fetch a valid one)
  referrer: { valid: fc.constantFrom('https://search.example/?q=boots'), aimed: fc.webUrl() },
  language: { valid: fc.constantFrom('en-US', 'pt-BR', 'de') },
  lastAssistantAt: { valid: late(() => new Date().toISOString()), aimed: anyDate },
  since: { valid: late(() => new Date(Date.now() - 3600_000).toISOString()), aimed: anyDate },
  lastEventId: { valid: fc.constantFrom('0', '1'), aimed: anyEventId },
  limit: { valid: fc.integer({ min: 1, max: 500 }), aimed: fc.oneof(fc.integer(), fc.double()) },
};

/** A valid string, damaged: a NUL (PostgreSQL text cannot hold it) or another odd character inside, cut short, repeated past any limit, or with junk after. */
const damaged = (valid: string) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.nat(valid.length).map((i) => `${valid.slice(0, i)}\u0000${valid.slice(i)}`) },
    fc
      .tuple(fc.constantFrom('\u0001', '\u007f', '\u200b', '\ud800', '\n'), fc.nat(valid.length))
      .map(([c, i]) => valid.slice(0, i) + c + valid.slice(i)),
    fc.nat(valid.length).map((i) => valid.slice(0, i)),
    fc.integer({ min: 2, max: 300 }).map((n) => valid.repeat(n)),
    fc.string({ maxLength: 20 }).map((junk) => valid + junk),
  );

const validValue = (field: string) => fieldValues[field]?.valid ?? anyValue;

/** A value for `field` that should be refused: a damaged valid one, one aimed at its column, or anything at all. */
function badValue(field: string): fc.Arbitrary<unknown> {
  const values = fieldValues[field];
  if (!values) return anyValue;
  return fc.oneof(
    { weight: 4, arbitrary: values.valid.chain((v) => (typeof v === 'string' ? damaged(v) : anyValue)) },
    { weight: 4, arbitrary: values.aimed ?? anyString },
    { weight: 1, arbitrary: anyValue },
  );
}

/**
 * Inputs for a procedure. Mostly a valid input with one field made bad, so the bad value
 * gets past the other fields' checks to wherever it would break; also every field random,
 * an unknown field added, and any JSON at all.
 */
function inputFor(p: { fields: string[]; required: string[] }): fc.Arbitrary<unknown> {
  const valid = Object.fromEntries(p.required.map((f) => [f, validValue(f)]));
  const random = Object.fromEntries(p.fields.map((f) => [f, fc.oneof(validValue(f), badValue(f))]));
  const oneBad =
    p.fields.length === 0 ? fc.record(valid) : fc.constantFrom(...p.fields).chain((f) => fc.record({ ...valid, [f]: badValue(f) }));
  return fc.oneof(
    { weight: 6, arbitrary: oneBad },
    { weight: 2, arbitrary: fc.record(random, { requiredKeys: [] }) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.record(valid), fc.constantFrom('role', '__proto__', 'constructor', 'x'), anyValue)
        .map(([r, k, v]) => ({ ...r, [k]: v })),
    },
    { weight: 1, arbitrary: fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.constant(undefined)) },
  );
}

/** Any procedure's input: for batches and raw requests, where the procedure is not known. */
const anyInput: fc.Arbitrary<unknown> = fc.oneof(...procedures.map((p) => inputFor(p)));

type Auth = 'none' | 'visitor' | 'operator' | 'console' | 'garbage';
/** Mostly real credentials, so generated inputs get past authentication to the database. */
const anyAuth = fc.oneof(
  { weight: 3, arbitrary: fc.constant<Auth>('visitor') },
  { weight: 2, arbitrary: fc.constant<Auth>('operator') },
  { weight: 2, arbitrary: fc.constant<Auth>('console') },
  { weight: 1, arbitrary: fc.constantFrom<Auth>('none', 'garbage') },
);

/** Signs the console owner in again should a fuzzed call have signed them out or removed them. */
async function keepConsoleSession(): Promise<void> {
  const token = owner.cookie.slice(owner.cookie.indexOf('=') + 1);
  if (!(await findOperatorSession(heed.services.db, token))) owner = await signedInOperator(heed.services, heed.url);
}

function authHeader(auth: Auth): Record<string, string> {
  if (auth === 'none') return {};
  // as the console page sends it: its session cookie and its own origin
  if (auth === 'console') return { cookie: owner.cookie, origin: heed.url };
  const token = { visitor: visitor.token, operator: ADMIN_TOKEN, garbage: 'v2.x.y.z.1.garbage' }[auth];
  return { authorization: `Bearer ${token}` };
}

// ---------------------------------------------------------------------------------------
// Requests and checks

interface Answer {
  status: number;
  text: string;
}

/** Any HTTP request, failing with a clear message if it does not answer within HANG_MS. */
async function request(path: string, init: RequestInit = {}): Promise<Answer> {
  try {
    const res = await fetch(`${heed.url}${path}`, { ...init, signal: AbortSignal.timeout(HANG_MS) });
    return { status: res.status, text: await res.text() };
  } catch (err) {
    throw new Error(`${init.method ?? 'GET'} ${path.slice(0, 200)} did not answer: ${String(err)}`);
  }
}

/** No 5xx, and no internal error in a tRPC body (a batch answers one per call). */
function expectNoServerError(what: string, answer: Answer): void {
  if (answer.status >= 500 || /"INTERNAL_SERVER_ERROR"|"httpStatus":5\d\d/.test(answer.text)) {
    throw new Error(`${what} answered ${answer.status}: ${answer.text.slice(0, 500)}`);
  }
}

async function callProcedure(path: string, type: string, input: unknown, auth: Auth): Promise<void> {
  if (auth === 'console') await keepConsoleSession();
  const encoded = input === undefined ? '' : `input=${encodeURIComponent(JSON.stringify(input))}`;
  if (type === 'subscription') return openStream(path, encoded, auth);
  const answer =
    type === 'query'
      ? await request(`/trpc/${path}?${encoded}`, { headers: authHeader(auth) })
      : await request(`/trpc/${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...authHeader(auth) },
          body: input === undefined ? undefined : JSON.stringify(input),
        });
  expectNoServerError(`${path}(${JSON.stringify(input)?.slice(0, 200)}) as ${auth}`, answer);
}

/**
 * Opens the event stream with whatever credential `auth` stands for and reads its start: an
 * error there arrives as an SSE event with status 200, so the events are checked too.
 */
async function openStream(path: string, encodedInput: string, auth: Auth, headers: Record<string, string> = {}): Promise<void> {
  const connectionParams =
    auth === 'visitor'
      ? { ticket: (await visitor.api.events.ticket.mutate()).ticket }
      : auth === 'garbage'
        ? { ticket: visitor.token }
        : null;
  const query = [encodedInput, connectionParams ? `connectionParams=${encodeURIComponent(JSON.stringify(connectionParams))}` : '']
    .filter(Boolean)
    .join('&');
  const answer = await streamStart(`/trpc/${path}?${query}`, { ...(auth === 'console' ? authHeader(auth) : {}), ...headers });
  expectNoServerError(`${path}?${query.slice(0, 200)} as ${auth}`, answer);
}

/** GET with `Accept: text/event-stream`, reading only the start of what answers (a stream that opens stays open). */
async function streamStart(path: string, headers: Record<string, string> = {}): Promise<Answer> {
  let res: Response;
  try {
    res = await fetch(`${heed.url}${path}`, { headers: { accept: 'text/event-stream', ...headers }, signal: AbortSignal.timeout(HANG_MS) });
  } catch (err) {
    throw new Error(`GET ${path.slice(0, 200)} did not answer: ${String(err)}`);
  }
  let text = '';
  if (res.body) {
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    // input and credential errors come first; an open stream is then left alone
    // (an error that comes later is still caught: it is logged, and the last test reads the log)
    const quiet = new Promise<'quiet'>((resolve) => setTimeout(() => resolve('quiet'), 100));
    try {
      while (!/serialized-error|"type":/.test(text)) {
        const next = await Promise.race([reader.read(), quiet]);
        if (next === 'quiet' || next.done) break;
        text += decoder.decode(next.value, { stream: true });
      }
    } finally {
      await reader.cancel().catch(() => {});
    }
  }
  return { status: res.status, text };
}

/** Writes a raw HTTP request and returns the status line of the answer (or '' if the server just closed). */
function rawRequest(head: string): Promise<string> {
  const { port } = new URL(heed.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    let answer = '';
    const timer = setTimeout(() => (socket.destroy(), reject(new Error(`no answer to ${JSON.stringify(head.slice(0, 200))}`))), HANG_MS);
    socket.on('data', (d) => (answer += d.toString('latin1')));
    socket.on('error', () => {});
    socket.on('close', () => (clearTimeout(timer), resolve(answer.split('\r\n')[0] ?? '')));
    socket.end(head, 'latin1');
  });
}

// ---------------------------------------------------------------------------------------

describe('fuzzing the API', () => {
  test('the router’s procedures are the ones fuzzed here', () => {
    const paths = procedures.map((p) => p.path);
    for (const known of [
      'session.start',
      'conversation.create',
      'conversation.list',
      'conversation.get',
      'conversation.markRead',
      'conversation.rename',
      'message.send',
      'message.retry',
      'events.subscribe',
      'admin.renameConversation',
      'admin.titleChecks',
      'visitor.page',
      'console.visitors.profile',
    ]) {
      expect(paths).toContain(known);
    }
  });

  test.each(procedures)('$path, with generated inputs and any credential, never answers 5xx', { timeout: 30_000 }, async (p) => {
    await fc.assert(
      fc.asyncProperty(inputFor(p), anyAuth, async (input, auth) => {
        await callProcedure(p.path, p.type, input, auth);
      }),
      { ...params, numRuns: RUNS_PER_PROCEDURE, plugins: [fc.interruptAfterTimeLimit(TIME_LIMIT_PER_PROCEDURE_MS)] },
    );
  });

  test('the event stream, with any cursor in its input or its Last-Event-ID header, never fails internally', {
    timeout: 60_000,
  }, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.option(fc.oneof(anyEventId, anyValue)),
        fc.option(fc.oneof(anyEventId, anyString)),
        fc.constantFrom<Auth>('visitor', 'visitor', 'none', 'garbage'),
        async (lastEventId, header, auth) => {
          // a reconnecting EventSource sends its cursor as Last-Event-ID; header values must be Latin-1 without CR/LF/NUL
          const headers: Record<string, string> = header !== null && /^[\x20-\x7e]*$/.test(header) ? { 'last-event-id': header } : {};
          await openStream('events.subscribe', `input=${encodeURIComponent(JSON.stringify({ lastEventId }))}`, auth, headers);
        },
      ),
      { ...params, numRuns: 60 },
    );
  });

  test('batches: any list of procedures, bad batch strings and inputs never answer 5xx', { timeout: 60_000 }, async () => {
    const names = fc.oneof(
      fc.constantFrom(...procedures.map((p) => p.path)),
      fc.constantFrom('', ',', 'nope', 'session', 'session.start.x', '%2C'),
      fc.string({ maxLength: 12 }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(names, { minLength: 0, maxLength: 14 }),
        fc.constantFrom('?batch=1', '?batch=0', '?batch=true', '?batch=1&batch=1', ''),
        fc.oneof(
          fc.dictionary(fc.oneof(fc.nat(15).map(String), fc.string({ maxLength: 4 })), anyInput, { maxKeys: 14 }),
          fc.jsonValue({ maxDepth: 2 }),
        ),
        fc.boolean(),
        anyAuth,
        async (paths, batch, inputs, asGet, auth) => {
          const path = `/trpc/${paths.map(encodeURIComponent).join(',')}${batch}`;
          const answer = asGet
            ? await request(`${path}${batch ? '&' : '?'}input=${encodeURIComponent(JSON.stringify(inputs))}`, { headers: authHeader(auth) })
            : await request(path, {
                method: 'POST',
                headers: { 'content-type': 'application/json', ...authHeader(auth) },
                body: JSON.stringify(inputs),
              });
          expectNoServerError(`batch ${path.slice(0, 200)}`, answer);
        },
      ),
      params,
    );
  });

  test('raw HTTP: wrong methods, bad JSON, huge bodies, odd content types, unknown paths and bad escapes never answer 5xx', {
    timeout: 60_000,
  }, async () => {
    const paths = fc.oneof(
      fc.constantFrom(
        '/trpc/message.send',
        '/trpc/session.start',
        '/trpc/conversation.list',
        '/trpc/events.subscribe',
        '/trpc/',
        '/trpc',
        '/healthz',
        '/api/cron/titles',
        '/widget.js',
        '/widget-chunks/x.js',
        '/',
        '/inline',
        '/nope',
        '/admin/export/conversations.csv',
        '/admin/export/overview.csv',
        '/admin/',
        '/metrics',
        '/readyz',
      ),
      fc.constantFrom(
        '/widget-chunks/%E0%A4%A',
        '/widget.js%',
        '/trpc/%',
        '/trpc/message.send%00',
        '/%2e%2e/%2e%2e/package.json',
        '/trpc/a%ZZ',
        '/widget-chunks/%00',
      ),
      fc.webPath(),
      fc.string({ maxLength: 30 }).map((s) => `/trpc/${encodeURIComponent(s)}`),
    );
    const queries = fc.oneof(
      fc.constant(''),
      fc.constantFrom(
        '?input=',
        '?input=%7B',
        '?input=%',
        '?input=%E0%A4%A',
        '?input=null',
        '?input=%22%00%22',
        '?batch=1&input=[]',
        '?connectionParams=%7B',
        '?connectionParams=1',
        '?lastEventId=99999999999999999999',
        '?search=%00',
        '?search=%ED%A0%80',
        '?range=7d&siteId=x',
        '?filter=nope&siteId=00000000-0000-0000-0000-000000000000',
      ),
      anyInput.map((v) => `?input=${encodeURIComponent(String(JSON.stringify(v)).slice(1))}`),
      fc.webQueryParameters().map((q) => `?${q}`),
    );
    const bodies = fc.oneof(
      fc.constant(undefined),
      fc.constantFrom(
        '{',
        '{"conversationId": ',
        'null',
        '[]',
        '"\\u0000"',
        '{"0":',
        '\u0000',
        'x'.repeat(70 * 1024),
        JSON.stringify({ content: 'a'.repeat(200 * 1024) }),
      ),
      fc.string({ maxLength: 200 }),
      anyInput.map((v) => JSON.stringify(v) ?? ''),
    );
    const contentTypes = fc.constantFrom(
      undefined,
      'application/json',
      'application/json; charset=utf-8',
      'text/plain',
      'multipart/form-data',
      'multipart/form-data; boundary=x',
      'application/octet-stream',
      'application/x-www-form-urlencoded',
      'APPLICATION/JSON',
      ';;',
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'),
        paths,
        queries,
        bodies,
        contentTypes,
        anyAuth,
        fc.option(fc.constantFrom('text/event-stream', 'application/jsonl', '*/*')),
        async (method, path, query, body, contentType, auth, accept) => {
          const headers: Record<string, string> = {
            ...authHeader(auth),
            ...(contentType ? { 'content-type': contentType } : {}),
            ...(accept ? { accept } : {}),
          };
          const withBody = method !== 'GET' && method !== 'HEAD' && body !== undefined;
          let answer: Answer;
          if (accept === 'text/event-stream' && method === 'GET') {
            expectNoServerError(`GET ${path}${query.slice(0, 100)} (SSE)`, await streamStart(`${path}${query}`, headers));
            return;
          }
          try {
            answer = await request(`${path}${query}`, { method, headers, body: withBody ? body : undefined });
          } catch (err) {
            // the server may reset a connection whose huge body it refused to read: not an answer to judge
            if (withBody && body!.length > 64 * 1024 && /fetch failed|ECONNRESET|EPIPE|other side closed/.test(String(err))) return;
            throw err;
          }
          expectNoServerError(`${method} ${path}${query.slice(0, 100)}`, answer);
        },
      ),
      params,
    );
  });

  test('raw request targets no URL parser accepts (`//`, `http://[`) answer 4xx, never 5xx', { timeout: 60_000 }, async () => {
    const targets = fc.oneof(
      fc.constantFrom(
        '//',
        '///',
        '//trpc/x',
        'http://[',
        'http://[::1',
        'http://x:99999/',
        'http://%zz/',
        'http://',
        '*',
        '/%',
        '/trpc/%',
        '/trpc//',
        '/..',
        '/widget-chunks/../../package.json',
      ),
      fc.string({ unit: fc.constantFrom(...'/:[]%@?#.*abcxyz019'.split('')), minLength: 1, maxLength: 20 }),
    );
    await fc.assert(
      fc.asyncProperty(
        targets,
        fc.constantFrom('GET', 'POST', 'OPTIONS'),
        fc.constantFrom('127.0.0.1', '[', '', 'x:99999', '%zz'),
        async (target, method, host) => {
          const status = await rawRequest(
            `${method} ${target} HTTP/1.1\r\nHost: ${host}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
          );
          if (/^HTTP\/1\.1 5/.test(status)) throw new Error(`${method} ${target} (Host: ${host}) answered ${status}`);
        },
      ),
      { ...params, numRuns: 100 },
    );
  });

  test('the site-messages route, with its site’s API key and any body, never answers 5xx', { timeout: 60_000 }, async () => {
    const siteId = (await heed.services.db.site.findUniqueOrThrow({ where: { key: heed.siteKey }, select: { id: true } })).id;
    // the procedures fuzzed before may have signed the owner out (sign-out, a removed session)
    await keepConsoleSession();
    const { key } = await owner.api.console.proactive.apiKeys.create.mutate({ siteId, name: 'Fuzzed key' });
    await heed.services.db.visitor.update({ where: { id: visitor.visitorId }, data: { externalId: 'user-1', identifiedAt: new Date() } });
    const field = (valid: string) => fc.oneof(fc.constant(valid), damaged(valid), anyString);
    const bodies = fc.oneof(
      {
        weight: 3,
        arbitrary: fc.record(
          { userId: field('user-1'), text: field('Your order shipped.'), conversationId: fc.option(anyId, { nil: undefined }) },
          { requiredKeys: ['userId', 'text'] },
        ),
      },
      anyValue,
    );
    // 60 a minute per key: the rest are refused with 429, which is an answer too
    await fc.assert(
      fc.asyncProperty(bodies, async (body) => {
        const answer = await request(`/api/v1/sites/${encodeURIComponent(heed.siteKey)}/messages`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
          body: JSON.stringify(body),
        });
        expectNoServerError(`POST site message ${JSON.stringify(body)?.slice(0, 200)}`, answer);
      }),
      { ...params, numRuns: 60 },
    );
  });

  test('the cron route, with any method, credential and body, never answers 5xx', { timeout: 60_000 }, async () => {
    const credentials = fc.constantFrom(
      undefined,
      `Bearer ${CRON_SECRET}`,
      `Bearer ${CRON_SECRET}x`,
      'Bearer ',
      'Basic abc',
      `bearer ${CRON_SECRET}`,
      `Bearer ${ADMIN_TOKEN}`,
      'Bearer \u00ff',
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'HEAD', 'OPTIONS'),
        credentials,
        fc.option(fc.string({ maxLength: 100 })),
        async (method, authorization, body) => {
          const withBody = method !== 'GET' && method !== 'HEAD' && body !== null;
          const answer = await request('/api/cron/titles', {
            method,
            headers: authorization ? { authorization } : {},
            body: withBody ? body : undefined,
          });
          expectNoServerError(`${method} /api/cron/titles`, answer);
        },
      ),
      { ...params, numRuns: 40 },
    );
  });

  test('afterwards the process is healthy and logged no internal error', async () => {
    const health = await request('/healthz');
    expect(health.status).toBe(200);
    expect(heed.logs.filter((line) => /failed|error/i.test(line))).toEqual([]);
    // and it still serves a visitor end to end
    const fresh = await heed.visitor();
    const conversationId = await fresh.conversation();
    expect((await fresh.send(conversationId, 'Still there?', randomUUID())).state).toBe('pending');
  });
});
