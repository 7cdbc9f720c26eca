import { afterAll, beforeAll, expect, test } from 'vitest';
import { overviewSeries } from '../../api/src/console/overview/series.ts';
import { TestHeed } from '../support/harness.ts';
import { signedInOperator, type TestOperator } from '../support/console.ts';
import { csvRecords, csvTables, PEOPLE_HEADER, parseCsv } from './export-csv.ts';
import { PeopleSeed } from './people-seed.ts';

/**
 * The team's side of the CSV downloads: the overview's people figures per bucket, over the range
 * per operator and per site, and the visitors' comments; the conversation rows' status, assignee
 * and rating. Each holds what happened, only of the operator's sites, never a private
 * conversation's words, and never a formula.
 */
let heed: TestHeed;
let owner: TestOperator;
let agentA: TestOperator;
let alpha: PeopleSeed;
let beta: PeopleSeed;
const ids: Record<string, string> = {};
const op: Record<string, string> = {};

beforeAll(async () => {
  heed = await TestHeed.start({ workers: 0 });
  const { services } = heed;
  owner = await signedInOperator(services, heed.url);
  alpha = await PeopleSeed.site(services, 'Alpha shop');
  beta = await PeopleSeed.site(services, 'Beta shop');
  agentA = await signedInOperator(services, heed.url, { role: 'agent', sites: [alpha.siteId] });
  for (const name of ['Ana', 'Cy', 'Bea']) op[name] = await PeopleSeed.operator(services, name);
  // five hours ago and on: always inside the 7 days, whatever the time of day
  const base = Date.now() - 5 * 3600_000;
  const at = (minutes: number) => new Date(base + minutes * 60_000).toISOString();

  // Alpha: handed off, Ana answered after 4 min and resolved it after 30; 👍 with words a spreadsheet must quote
  const answered = (ids.answered = await alpha.conversation(at(0)));
  await alpha.handoff(answered, at(0));
  await alpha.operator(answered, at(4), op.Ana!);
  await alpha.resolve(answered, at(30), op.Ana!);
  await alpha.rate(answered, at(40), 1, 'Fast, kind\nthanks');
  // Alpha: Cy answered after 10 min, resolved after 70 with nobody assigned; 👎 with a formula
  const slow = (ids.slow = await alpha.conversation(at(60)));
  await alpha.handoff(slow, at(60));
  await alpha.operator(slow, at(70), op.Cy!);
  await alpha.resolve(slow, at(130));
  await alpha.rate(slow, at(135), -1, '-1 star =HYPERLINK("http://evil.example","x")');
  // Alpha, private: Ana answered after 2 min, resolved after 10; its rating counts, its words never show
  const secret = (ids.secret = await alpha.conversation(at(20), { private: true }));
  await alpha.handoff(secret, at(20));
  await alpha.operator(secret, at(22), op.Ana!);
  await alpha.resolve(secret, at(30), op.Ana!);
  await alpha.rate(secret, at(45), 1, 'my walnut rash');
  // Alpha: assigned to Ana, still open; snoozed for a day; a snooze that ran out reads open
  ids.assigned = await alpha.conversation(at(80));
  await services.db.conversation.update({ where: { id: ids.assigned }, data: { assigneeId: op.Ana!, assignedAt: new Date(at(81)) } });
  ids.snoozed = await alpha.conversation(at(90));
  await services.db.conversation.update({
    where: { id: ids.snoozed },
    data: { status: 'snoozed', snoozedUntil: new Date(Date.now() + 86_400_000) },
  });
  ids.woke = await alpha.conversation(at(95));
  await services.db.conversation.update({ where: { id: ids.woke }, data: { status: 'snoozed', snoozedUntil: new Date(base) } });

  // Beta: Bea, whom only Beta's figures know; and Cy, who works on both sites
  const theirs = (ids.theirs = await beta.conversation(at(100)));
  await beta.handoff(theirs, at(100));
  await beta.operator(theirs, at(101), op.Bea!);
  await beta.resolve(theirs, at(120), op.Bea!);
  await beta.rate(theirs, at(150), -1, 'Beta secret words');
  ids.both = await beta.conversation(at(110));
  await beta.handoff(ids.both, at(110));
  await beta.operator(ids.both, at(115), op.Cy!);
});
afterAll(() => heed?.stop());

const download = async (path: string, who: TestOperator = owner) => {
  const res = await fetch(`${heed.url}/admin/export/${path}`, { headers: { cookie: who.cookie } });
  expect(res.status).toBe(200);
  return res.text();
};
const overview = async (query: string, who?: TestOperator) => {
  const text = await download(`overview.csv?range=7d&${query}`, who);
  const [buckets, range, comments] = csvTables(text) as [Record<string, string>[], Record<string, string>[], Record<string, string>[]];
  return { text, buckets, range, comments };
};
/** A row of figures as the file writes them: counts, then p50/p90 in seconds (empty: nothing timed). */
const figures = (...cells: (number | null)[]) =>
  Object.fromEntries(PEOPLE_HEADER.map((key, i) => [key, cells[i] === null ? '' : String(cells[i])]));
/** Alpha's figures: responses 240, 600, 120 s; resolutions 1800, 4200, 600 s; 👍 2, 👎 1. */
const ALPHA = figures(3, 240, 528, 3, 1800, 3720, 2, 1);
const noFormula = (text: string) =>
  parseCsv(text)
    .flat()
    .filter((cell) => /^[=+\-@\t\r]/.test(cell));

test('the overview download: per bucket, then over the range per operator and per site, then the comments', async () => {
  const { text, buckets, range, comments } = await overview(`siteId=${alpha.siteId}`);
  expect(buckets).toHaveLength(7);
  const sum = (key: string) => buckets.reduce((n, r) => n + Number(r[key]), 0);
  expect(['first_responses', 'resolutions', 'ratings_helpful', 'ratings_not_helpful'].map(sum)).toEqual([3, 3, 2, 1]);
  // a bucket's times are timed where something was, empty elsewhere
  for (const r of buckets) expect(r.first_response_p50_s === '').toBe(r.first_responses === '0');

  // percentile_cont: p90 nine tenths of the way between the two slowest
  expect(range).toEqual([
    { group: 'team', id: '', name: '', ...ALPHA },
    { group: 'operator', id: op.Ana, name: 'Ana', ...figures(2, 180, 228, 2, 1200, 1680, 2, 0) },
    { group: 'operator', id: op.Cy, name: 'Cy', ...figures(1, 600, 600, 1, 4200, 4200, 0, 1) },
    { group: 'site', id: alpha.siteId, name: 'Alpha shop', ...ALPHA },
  ]);

  // newest first; the private conversation's rating counted above, its words are nowhere
  expect(comments).toEqual([
    {
      rated_at_utc: expect.stringMatching(/Z$/),
      site: 'Alpha shop',
      operator: 'Cy',
      rating: 'not_helpful',
      comment: '\'-1 star =HYPERLINK("http://evil.example","x")',
      conversation_id: ids.slow,
    },
    {
      rated_at_utc: expect.stringMatching(/Z$/),
      site: 'Alpha shop',
      operator: 'Ana',
      rating: 'helpful',
      comment: 'Fast, kind\nthanks',
      conversation_id: ids.answered,
    },
  ]);
  expect(text).not.toMatch(/walnut/);
  expect(noFormula(text)).toEqual([]);
});

test('every site: each operator and each site over the range, and every comment', async () => {
  const { range, comments } = await overview('');
  expect(range.map((r) => [r.group, r.name, r.first_responses, r.first_response_p50_s])).toEqual([
    ['team', '', '5', '240'],
    ['operator', 'Ana', '2', '180'],
    ['operator', 'Cy', '2', '450'],
    ['operator', 'Bea', '1', '60'],
    ['site', 'Alpha shop', '3', '240'],
    ['site', 'Beta shop', '2', '180'],
  ]);
  expect(comments.map((c) => [c.site, c.operator, c.rating, c.comment])).toEqual([
    ['Beta shop', 'Bea', 'not_helpful', 'Beta secret words'],
    ['Alpha shop', 'Cy', 'not_helpful', expect.stringMatching(/^'-1 star/)],
    ['Alpha shop', 'Ana', 'helpful', 'Fast, kind\nthanks'],
  ]);
});

test("an agent of Alpha never sees Beta's operators, figures or comments, in either download", async () => {
  // every site the agent may see is Alpha alone: Cy's figures are Alpha's, Bea is not a row
  const mine = await overview('', agentA);
  expect(mine.range).toEqual((await overview(`siteId=${alpha.siteId}`)).range);
  expect(mine.comments.map((c) => c.conversation_id)).toEqual([ids.slow, ids.answered]);
  // naming Beta counts nothing, as a site that does not exist
  const named = await overview(`siteId=${beta.siteId}`, agentA);
  expect(named.range).toEqual([{ group: 'team', id: '', name: '', ...figures(0, null, null, 0, null, null, 0, 0) }]);
  expect(named.comments).toEqual([]);
  expect(named.buckets.every((r) => r.first_responses === '0' && r.ratings_not_helpful === '0')).toBe(true);

  const list = await download('conversations.csv', agentA);
  for (const text of [mine.text, named.text, list]) {
    expect(text).not.toMatch(/Bea|Beta|walnut/);
    expect(text).not.toContain(op.Bea);
    expect(text).not.toContain(ids.theirs);
    expect(text).not.toContain(beta.siteId);
  }
  expect(csvRecords(list).every((r) => r.site === 'Alpha shop')).toBe(true);
});

test('the conversation download: status, assignee, rating and its comment, withheld for a private conversation', async () => {
  const text = await download(`conversations.csv?siteId=${alpha.siteId}`);
  const rows = new Map(csvRecords(text).map((r) => [r.id, r]));
  const pick = (id: string | undefined) => {
    const { status, assignee, rating, rating_comment, rated_at, private: secret } = rows.get(id!)!;
    return { status, assignee, rating, rating_comment, rated: rated_at !== '', private: secret };
  };
  expect(pick(ids.answered)).toEqual({
    status: 'resolved',
    assignee: 'Ana',
    rating: 'helpful',
    rating_comment: 'Fast, kind\nthanks',
    rated: true,
    private: 'false',
  });
  expect(pick(ids.slow)).toEqual({
    status: 'resolved',
    assignee: '',
    rating: 'not_helpful',
    rating_comment: '\'-1 star =HYPERLINK("http://evil.example","x")',
    rated: true,
    private: 'false',
  });
  expect(pick(ids.secret)).toEqual({
    status: 'resolved',
    assignee: 'Ana',
    rating: 'helpful',
    rating_comment: '',
    rated: true,
    private: 'true',
  });
  const unrated = { rating: '', rating_comment: '', rated: false, private: 'false' };
  expect(pick(ids.assigned)).toEqual({ status: 'open', assignee: 'Ana', ...unrated });
  expect(pick(ids.snoozed)).toEqual({ status: 'snoozed', assignee: '', ...unrated });
  expect(pick(ids.woke)).toEqual({ status: 'open', assignee: '', ...unrated });
  expect(rows.get(ids.answered!)!.rated_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  expect(text).not.toMatch(/walnut/);
  expect(noFormula(text)).toEqual([]);
});

test('the overview download holds every comment of the range, where the console lists the newest 50', async () => {
  const chatty = await PeopleSeed.site(heed.services, 'Chatty shop');
  await heed.services.db.$executeRaw`
    INSERT INTO "Conversation" (id, "siteId", "visitorId", "createdAt", "updatedAt", status, "resolvedAt", rating, "ratingComment", "ratedAt")
    SELECT gen_random_uuid(), ${chatty.siteId}::uuid, ${chatty.visitorId}::uuid, now() - interval '2 hours', now() - interval '2 hours',
           'resolved'::"ConversationStatus", now() - interval '1 hour', 1, 'Comment ' || i, now() - i * interval '1 second'
    FROM generate_series(1, 55) AS i`;
  const query = { range: '7d', siteId: chatty.siteId, scope: null } as const;
  expect((await overviewSeries(heed.services.db, query)).people.comments).toHaveLength(50);
  const [, , comments] = csvTables(await download(`overview.csv?range=7d&siteId=${chatty.siteId}`));
  expect(comments!.map((c) => c.comment)).toEqual(Array.from({ length: 55 }, (_, i) => `Comment ${i + 1}`));
});
