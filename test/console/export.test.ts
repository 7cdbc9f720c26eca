import { afterAll, beforeAll, expect, test } from 'vitest';
import { revokeOperatorSession, sessionIdOf } from '../../api/src/operators/operator-sessions.ts';
import { TestHeed } from '../support/harness.ts';
import { signedInOperator, type TestOperator } from '../support/console.ts';
import { csvHeaders, csvRecords, csvTables, PEOPLE_HEADER, parseCsv } from './export-csv.ts';
import { OverviewSeed } from './overview-seed.ts';

/**
 * The console's CSV downloads over real HTTP: the session cookie or nothing, files a
 * spreadsheet reads cell for cell (quotes, commas, line breaks) without running a visitor's
 * text as a formula, and the list's filters, search and site honoured across pages.
 */
let heed: TestHeed;
let owner: TestOperator;
let seed: OverviewSeed;
let other: OverviewSeed;
const ids: Record<string, string> = {};

beforeAll(async () => {
  heed = await TestHeed.start({ workers: 0 });
  owner = await signedInOperator(heed.services, heed.url);
  seed = await OverviewSeed.site(heed.services, 'Shop, "Main"');
  other = await OverviewSeed.site(heed.services, 'Other shop');
  const db = heed.services.db;
  const base = Date.now() - 3600_000;
  const conversation = async (name: string, minutes: number, title: string | null, owner = seed) => {
    const id = await owner.conversation(new Date(base + minutes * 60_000));
    await db.conversation.update({ where: { id }, data: { title, titleSource: title ? 'generated' : null } });
    return (ids[name] = id);
  };
  await conversation('formula', 1, '=HYPERLINK("http://evil.example","click")');
  await conversation('quoted', 2, 'Refund, "urgent"\nsecond line');
  const failed = await conversation('failed', 3, 'Broken reply');
  await seed.run(failed, new Date(base + 4 * 60_000), { error: 'model_timeout', ttftMs: null });
  await db.conversation.update({
    where: { id: failed },
    data: { updatedAt: new Date(base + 5 * 60_000), lastAssistantAt: new Date(base + 5 * 60_000) },
  });
  const searched = await conversation('searched', 6, '@mention');
  await db.message.create({
    data: { conversationId: searched, visitorId: seed.visitorId, role: 'user', content: 'where is my parcel tracking number' },
  });
  await conversation('elsewhere', 7, 'Other site', other);
});
afterAll(() => heed?.stop());

const get = (path: string, cookie: string | null = owner.cookie) => fetch(`${heed.url}${path}`, { headers: cookie ? { cookie } : {} });

test('signed out, with a forged cookie or a revoked session, both exports answer 401 and no data', async () => {
  const stranger = await signedInOperator(heed.services, heed.url, { role: 'agent' });
  await revokeOperatorSession(heed.services.db, sessionIdOf(stranger.cookie.split('=')[1]!));
  for (const path of ['/admin/export/conversations.csv', '/admin/export/overview.csv?range=7d']) {
    for (const cookie of [null, 'heed_console=forgedforgedforgedforgedforged', stranger.cookie]) {
      const res = await get(path, cookie);
      expect(res.status).toBe(401);
      expect(res.headers.get('content-disposition')).toBeNull();
      expect(await res.text()).not.toContain(',');
    }
  }
});

test('the conversation export is an attachment a spreadsheet reads cell for cell, formulas defused', async () => {
  const res = await get('/admin/export/conversations.csv?siteId=&filter=&search=');
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/csv; charset=utf-8/);
  expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="heed-conversations-\d{4}-\d{2}-\d{2}\.csv"$/);
  expect(res.headers.get('cache-control')).toBe('no-store');
  const body = await res.text();
  const rows = csvRecords(body);
  // newest activity first, every site
  expect(rows.map((r) => r.id)).toEqual([ids.elsewhere, ids.searched, ids.failed, ids.quoted, ids.formula]);
  const byId = new Map(rows.map((r) => [r.id, r]));
  expect(byId.get(ids.formula!)!.title).toBe('\'=HYPERLINK("http://evil.example","click")');
  expect(byId.get(ids.searched!)!.title).toBe("'@mention");
  expect(byId.get(ids.quoted!)!.title).toBe('Refund, "urgent"\nsecond line');
  expect(byId.get(ids.quoted!)!.site).toBe('Shop, "Main"');
  // the visitor's message counts; the failed reply's placeholder is no message anyone wrote
  expect(byId.get(ids.failed!)).toMatchObject({ failed: 'true', state: 'unviewed', title: 'Broken reply', messages: '1' });
  expect(byId.get(ids.formula!)).toMatchObject({ failed: 'false', state: 'default', last_reply_at: '', visitor_id: seed.visitorId });
  // nobody from the team touched it: open, unassigned, unrated (export-people.test.ts fills these)
  expect(byId.get(ids.formula!)).toMatchObject({ status: 'open', assignee: '', rating: '', rating_comment: '', rated_at: '' });
  // no cell of the file starts a formula
  for (const cell of parseCsv(body).flat()) expect(cell).not.toMatch(/^[=+\-@\t\r]/);

  const head = await fetch(`${heed.url}/admin/export/conversations.csv`, { method: 'HEAD', headers: { cookie: owner.cookie } });
  expect(head.status).toBe(200);
  expect(head.headers.get('content-disposition')).toMatch(/^attachment; /);
  expect(await head.text()).toBe('');
});

test("the export honours the list's filter, search and site", async () => {
  const idsOf = async (query: string) => csvRecords(await (await get(`/admin/export/conversations.csv?${query}`)).text()).map((r) => r.id);
  expect(await idsOf('filter=failed')).toEqual([ids.failed]);
  expect(await idsOf('filter=unread')).toEqual([ids.failed]);
  expect(await idsOf('filter=live')).toEqual([]);
  expect(await idsOf('search=parcel')).toEqual([ids.searched]);
  expect(await idsOf(`siteId=${other.siteId}`)).toEqual([ids.elsewhere]);
  expect(await idsOf(`siteId=${other.siteId}&filter=failed`)).toEqual([]);
});

test('a large export streams every matching conversation once, across many pages, in list order', async () => {
  const big = await OverviewSeed.site(heed.services, 'Big site');
  // 1,234 conversations: thirteen pages of 100
  await heed.services.db.$executeRaw`
    INSERT INTO "Conversation" (id, "siteId", "visitorId", title, "createdAt", "updatedAt")
    SELECT gen_random_uuid(), ${big.siteId}::uuid, ${big.visitorId}::uuid, 'Bulk ' || i, now() - i * interval '1 second', now() - (i % 300) * interval '1 second'
    FROM generate_series(1, 1234) AS i`;
  const res = await get(`/admin/export/conversations.csv?siteId=${big.siteId}`);
  const rows = csvRecords(await res.text());
  expect(rows).toHaveLength(1234);
  expect(new Set(rows.map((r) => r.id)).size).toBe(1234);
  const order = rows.map((r) => [r.updated_at!, r.id!] as const);
  for (let i = 1; i < order.length; i++) {
    const [t0, id0] = order[i - 1]!;
    const [t1, id1] = order[i]!;
    expect(t0 > t1 || (t0 === t1 && id0 > id1)).toBe(true);
  }
});

test('the overview export has one row per bucket and a column per failure kind, then the range and the comments', async () => {
  const res = await get(`/admin/export/overview.csv?range=24h&siteId=${seed.siteId}`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="heed-overview-24h-\d{4}-\d{2}-\d{2}\.csv"$/);
  const text = await res.text();
  const [rows, range, comments] = csvTables(text) as [Record<string, string>[], Record<string, string>[], Record<string, string>[]];
  expect(rows).toHaveLength(24);
  expect(Object.keys(rows[0]!)).toEqual([
    'bucket_start_utc',
    'conversations',
    'replies',
    'failures',
    'failures_model_timeout',
    'ttft_p50_ms',
    'ttft_p95_ms',
    'prompt_tokens',
    'completion_tokens',
    'reply_cost_usd',
    'title_cost_usd',
    ...PEOPLE_HEADER,
  ]);
  const sum = (key: string) => rows.reduce((n, r) => n + Number(r[key]), 0);
  expect(sum('conversations')).toBe(4);
  expect(sum('failures_model_timeout')).toBe(1);
  expect(rows.every((r) => r.ttft_p50_ms === '')).toBe(true);
  // nobody from the team answered here: the range's table is the team's empty row, no comment is listed
  expect(csvHeaders(text).slice(1)).toEqual([
    ['group', 'id', 'name', ...PEOPLE_HEADER],
    ['rated_at_utc', 'site', 'operator', 'rating', 'comment', 'conversation_id'],
  ]);
  expect(range).toEqual([
    { group: 'team', id: '', name: '', ...Object.fromEntries(PEOPLE_HEADER.map((k) => [k, k.endsWith('_s') ? '' : '0'])) },
  ]);
  expect(comments).toEqual([]);
  expect((await get('/admin/export/overview.csv?range=30d')).status).toBe(200);
});

test('malformed queries get 400 naming the field; other paths 404; writes 405', async () => {
  const cases: [string, RegExp][] = [
    ['/admin/export/conversations.csv?filter=everything', /filter/],
    ['/admin/export/conversations.csv?siteId=not-a-uuid', /siteId/],
    [`/admin/export/conversations.csv?search=${'x'.repeat(201)}`, /search: at most 200/],
    ['/admin/export/conversations.csv?search=%00', /search: must not contain control characters/],
    ['/admin/export/conversations.csv?limit=5', /unrecognized|limit/i],
    ['/admin/export/overview.csv', /range/],
    ['/admin/export/overview.csv?range=1y', /range/],
  ];
  for (const [path, message] of cases) {
    const res = await get(path);
    expect(res.status, path).toBe(400);
    expect(await res.text(), path).toMatch(message);
  }
  expect((await get('/admin/export/secrets.csv')).status).toBe(404);
  const post = await fetch(`${heed.url}/admin/export/conversations.csv`, { method: 'POST', headers: { cookie: owner.cookie } });
  expect(post.status).toBe(405);
});
