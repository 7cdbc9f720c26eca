import { afterAll, beforeAll, expect, test } from 'vitest';
import { overviewSeries } from '../../api/src/console/overview/series.ts';
import { TestHeed } from '../support/harness.ts';
import { signedInOperator } from '../support/console.ts';
import { csvTables } from './export-csv.ts';
import { PeopleSeed } from './people-seed.ts';

/**
 * The overview's people figures against a real database: first response time from the moment
 * the visitor started waiting for a person (the hand-off request, else the first visitor message
 * the assistant had not answered) to the first operator message; resolution time from the same
 * start to `resolvedAt`; p50/p90 per bucket, per operator and over the range; the ratings and
 * their comments (never a private conversation's words); the same in the overview's CSV.
 */
let heed: TestHeed;
beforeAll(async () => {
  heed = await TestHeed.start({ workers: 0 });
});
afterAll(() => heed?.stop());

const NONE = {
  firstResponses: 0,
  firstResponseP50S: null,
  firstResponseP90S: null,
  resolutions: 0,
  resolutionP50S: null,
  resolutionP90S: null,
  helpful: 0,
  notHelpful: 0,
  helpfulShare: null,
};

test('7d: each conversation timed from when it started waiting for a person; p50/p90 per day, per operator and over the range', async () => {
  const { services } = heed;
  const site = await PeopleSeed.site(services, 'Shop');
  const elsewhere = await PeopleSeed.site(services, 'Other shop');
  const ana = await PeopleSeed.operator(services, 'Ana');
  const bo = await PeopleSeed.operator(services, 'Bo');

  // the assistant asked for a person at 10:01; Ana answered at 10:05 (4 min) and resolved it at 10:31 (30 min)
  const handedOff = await site.conversation('2026-10-06T10:00:00Z');
  await site.visitor(handedOff, '2026-10-06T10:00:00Z');
  await site.assistant(handedOff, '2026-10-06T10:00:05Z');
  await site.handoff(handedOff, '2026-10-06T10:01:00Z');
  await site.visitor(handedOff, '2026-10-06T10:02:00Z');
  await site.joined(handedOff, '2026-10-06T10:04:00Z', ana);
  await site.operator(handedOff, '2026-10-06T10:05:00Z', ana);
  await site.resolve(handedOff, '2026-10-06T10:31:00Z', ana);
  await site.rate(handedOff, '2026-10-06T10:40:00Z', 1, 'Fast and kind');

  // no hand-off: Bo took it over; the visitor had waited since 11:10 (the assistant's last reply was 11:00:05):
  // 10 min to Bo's answer, 60 min to the resolution (nobody assigned: it counts for Bo, who answered)
  const takenOver = await site.conversation('2026-10-06T11:00:00Z');
  await site.visitor(takenOver, '2026-10-06T11:00:00Z');
  await site.assistant(takenOver, '2026-10-06T11:00:05Z');
  await site.visitor(takenOver, '2026-10-06T11:10:00Z');
  await site.visitor(takenOver, '2026-10-06T11:11:00Z');
  await site.joined(takenOver, '2026-10-06T11:12:00Z', bo);
  await site.operator(takenOver, '2026-10-06T11:20:00Z', bo);
  await site.resolve(takenOver, '2026-10-06T12:10:00Z');
  await site.rate(takenOver, '2026-10-06T12:30:00Z', -1, 'Slow');

  // Ana spoke first, nothing was waiting: no first response, no resolution time
  const unasked = await site.conversation('2026-10-06T13:00:00Z');
  await site.visitor(unasked, '2026-10-06T13:00:00Z');
  await site.assistant(unasked, '2026-10-06T13:00:05Z');
  await site.operator(unasked, '2026-10-06T13:30:00Z', ana);
  await site.resolve(unasked, '2026-10-06T14:00:00Z', ana);

  // a failed reply answers nothing: the visitor waited from 09:00 to Ana's 09:02 (2 min), the day before
  const failedReply = await site.conversation('2026-10-05T09:00:00Z');
  await site.visitor(failedReply, '2026-10-05T09:00:00Z');
  await site.assistant(failedReply, '2026-10-05T09:00:05Z', { failed: true });
  await site.operator(failedReply, '2026-10-05T09:02:00Z', ana);

  // private: its times and rating count, its comment is never listed
  const secret = await site.conversation('2026-10-05T15:00:00Z', { private: true });
  await site.handoff(secret, '2026-10-05T15:00:00Z');
  await site.operator(secret, '2026-10-05T15:03:00Z', ana);
  await site.resolve(secret, '2026-10-05T15:10:00Z', ana);
  await site.rate(secret, '2026-10-05T15:20:00Z', 1, 'my walnut rash');

  // answered before the range (not this range's first response), resolved inside it after 14 days
  const longOne = await site.conversation('2026-09-20T08:00:00Z');
  await site.handoff(longOne, '2026-09-20T08:00:00Z');
  await site.operator(longOne, '2026-09-20T08:01:00Z', ana);
  await site.resolve(longOne, '2026-10-04T08:00:00Z', ana);

  // another site's conversation never reaches this site's figures
  const theirs = await elsewhere.conversation('2026-10-06T09:00:00Z');
  await elsewhere.handoff(theirs, '2026-10-06T09:00:00Z');
  await elsewhere.operator(theirs, '2026-10-06T09:00:30Z', bo);

  const now = new Date('2026-10-07T20:00:00Z');
  const { people } = await overviewSeries(services.db, { scope: null, range: '7d', siteId: site.siteId, now });
  expect(people.points.map((p) => p.t.slice(0, 10))).toEqual([
    '2026-10-01',
    '2026-10-02',
    '2026-10-03',
    '2026-10-04',
    '2026-10-05',
    '2026-10-06',
    '2026-10-07',
  ]);
  const day = (d: string) => people.points.find((p) => p.t === `${d}T00:00:00.000Z`)!;
  // percentile_cont: p50 halfway between two, p90 nine tenths of the way
  expect(day('2026-10-06')).toEqual({
    t: '2026-10-06T00:00:00.000Z',
    firstResponses: 2,
    firstResponseP50S: 420,
    firstResponseP90S: 564,
    resolutions: 2,
    resolutionP50S: 2700,
    resolutionP90S: 3420,
    helpful: 1,
    notHelpful: 1,
    helpfulShare: 0.5,
  });
  expect(day('2026-10-05')).toMatchObject({
    firstResponses: 2,
    firstResponseP50S: 150,
    firstResponseP90S: 174,
    resolutions: 1,
    resolutionP50S: 600,
    helpful: 1,
    notHelpful: 0,
    helpfulShare: 1,
  });
  expect(day('2026-10-04')).toMatchObject({ firstResponses: 0, firstResponseP50S: null, resolutions: 1, resolutionP50S: 14 * 86_400 });
  for (const d of ['2026-10-01', '2026-10-02', '2026-10-03', '2026-10-07']) expect(day(d)).toEqual({ t: `${d}T00:00:00.000Z`, ...NONE });

  expect(people.operators).toEqual([
    {
      operator: { id: ana, name: 'Ana' },
      // 120, 180, 240 s; resolved 600 s, 1800 s and 14 days
      firstResponses: 3,
      firstResponseP50S: 180,
      firstResponseP90S: 228,
      resolutions: 3,
      resolutionP50S: 1800,
      resolutionP90S: 968040,
      helpful: 2,
      notHelpful: 0,
      helpfulShare: 1,
    },
    {
      operator: { id: bo, name: 'Bo' },
      firstResponses: 1,
      firstResponseP50S: 600,
      firstResponseP90S: 600,
      resolutions: 1,
      resolutionP50S: 3600,
      resolutionP90S: 3600,
      helpful: 0,
      notHelpful: 1,
      helpfulShare: 0,
    },
  ]);
  expect(people.sites).toEqual([{ site: { id: site.siteId, name: 'Shop' }, ...people.total }]);
  // the range's own percentiles, not a mix of the days'
  expect(people.total).toEqual({
    firstResponses: 4,
    firstResponseP50S: 210,
    firstResponseP90S: 492,
    resolutions: 4,
    resolutionP50S: 2700,
    resolutionP90S: 847800,
    helpful: 2,
    notHelpful: 1,
    helpfulShare: 2 / 3,
  });
  expect(people.comments).toEqual([
    { conversationId: takenOver, siteName: 'Shop', rating: -1, comment: 'Slow', ratedAt: '2026-10-06T12:30:00.000Z', operatorName: 'Bo' },
    {
      conversationId: handedOff,
      siteName: 'Shop',
      rating: 1,
      comment: 'Fast and kind',
      ratedAt: '2026-10-06T10:40:00.000Z',
      operatorName: 'Ana',
    },
  ]);
  expect(people.commentCount).toBe(2);
  expect(JSON.stringify(people)).not.toContain('walnut');

  // every site: the other site's 30 s answer joins Bo's figures and the day's
  const all = await overviewSeries(services.db, { scope: null, range: '7d', now });
  expect(all.people.total.firstResponses).toBe(5);
  expect(all.people.operators.find((o) => o.operator?.name === 'Bo')).toMatchObject({ firstResponses: 2, firstResponseP50S: 315 });
  expect(all.people.sites.map((s) => [s.site.name, s.firstResponses, s.firstResponseP50S])).toEqual([
    ['Shop', 4, 210],
    ['Other shop', 1, 30],
  ]);
  // an agent of the other site only: nothing of this one
  const theirsOnly = await overviewSeries(services.db, { scope: [elsewhere.siteId], range: '7d', siteId: site.siteId, now });
  expect(theirsOnly.people.total).toEqual(NONE);
  expect(theirsOnly.people.operators).toEqual([]);
  expect(theirsOnly.people.sites).toEqual([]);
});

test('through console.overview.series and the CSV: the current hour’s first response, resolution and rating, per site the operator may see', async () => {
  const { services } = heed;
  const site = await PeopleSeed.site(services, 'Live shop');
  const ana = await PeopleSeed.operator(services, 'Ana Live');
  const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();
  const id = await site.conversation(at(20));
  await site.handoff(id, at(10));
  await site.operator(id, at(6), ana);
  await site.resolve(id, at(4), ana);
  const ratedAt = at(3);
  await site.rate(id, ratedAt, 1, '=cmd|calc');

  const owner = await signedInOperator(services, heed.url, { role: 'owner' });
  const series = await owner.api.console.overview.series.query({ range: '24h', siteId: site.siteId });
  expect(series.people.total).toMatchObject({
    firstResponses: 1,
    firstResponseP50S: 240,
    resolutions: 1,
    resolutionP50S: 360,
    helpful: 1,
    notHelpful: 0,
  });
  expect(series.people.operators.map((o) => o.operator?.name)).toEqual(['Ana Live']);
  expect(series.people.points).toHaveLength(24);
  expect(series.people.points.map((p) => p.t)).toEqual(series.points.map((p) => p.t));

  const agent = await signedInOperator(services, heed.url, { role: 'agent', sites: [] });
  expect((await agent.api.console.overview.series.query({ range: '24h', siteId: site.siteId })).people.total.firstResponses).toBe(0);

  const csv = await (
    await fetch(`${heed.url}/admin/export/overview.csv?range=24h&siteId=${site.siteId}`, { headers: { cookie: owner.cookie } })
  ).text();
  const [rows, range, comments] = csvTables(csv) as [Record<string, string>[], Record<string, string>[], Record<string, string>[]];
  const sum = (key: string) => rows.reduce((n, r) => n + Number(r[key]), 0);
  expect([sum('first_responses'), sum('resolutions'), sum('ratings_helpful'), sum('ratings_not_helpful')]).toEqual([1, 1, 1, 0]);
  const hour = rows.find((r) => r.first_responses === '1')!;
  expect(hour).toMatchObject({ first_response_p50_s: '240', first_response_p90_s: '240' });
  // over the range: the team, Ana Live and the site, as the console's tables have them
  expect(range.map((r) => [r.group, r.name, r.first_responses, r.resolution_p50_s, r.ratings_helpful])).toEqual([
    ['team', '', '1', '360', '1'],
    ['operator', 'Ana Live', '1', '360', '1'],
    ['site', 'Live shop', '1', '360', '1'],
  ]);
  // the visitor's comment is a cell of text, never a formula the spreadsheet runs
  expect(comments).toEqual([
    { rated_at_utc: ratedAt, site: 'Live shop', operator: 'Ana Live', rating: 'helpful', comment: "'=cmd|calc", conversation_id: id },
  ]);
});
