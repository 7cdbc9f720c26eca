import { afterAll, beforeAll, expect, test } from 'vitest';
import { overviewSeries, type SeriesPoint } from '../../api/src/console/overview/series.ts';
import { TestHeed } from '../support/harness.ts';
import { consoleClient, signedInOperator } from '../support/console.ts';
import { OverviewSeed } from './overview-seed.ts';

/**
 * console.overview.series against a real database: buckets are whole UTC hours or days,
 * zero-filled, and every seeded conversation, reply, failure, token and cent lands in the
 * bucket of its time.
 */
let heed: TestHeed;
beforeAll(async () => {
  heed = await TestHeed.start({ env: { DEBOUNCE_MS: '20' } });
});
afterAll(() => heed?.stop());

const at = (iso: string) => new Date(iso);
const pointAt = (points: SeriesPoint[], iso: string) => {
  const point = points.find((p) => p.t === new Date(iso).toISOString());
  if (!point) throw new Error(`no bucket starts at ${iso}; buckets: ${points.map((p) => p.t).join(', ')}`);
  return point;
};
const EMPTY = {
  conversations: 0,
  replies: 0,
  failures: 0,
  failuresByKind: {},
  ttftP50Ms: null,
  ttftP95Ms: null,
  promptTokens: 0,
  completionTokens: 0,
  titleCostUsd: 0,
  replyCostUsd: 0,
};

test('24h: 24 hourly buckets, zero-filled, each reply and failure counted in its own hour', async () => {
  const seed = await OverviewSeed.site(heed.services);
  const now = at('2026-06-15T10:30:00Z');
  const answered = await seed.conversation(at('2026-06-15T08:10:00Z'));
  await seed.run(answered, at('2026-06-15T08:12:00Z'), { ttftMs: 200, promptTokens: 100, completionTokens: 20, costUsd: 0.001 });
  await seed.titleCheck(answered, at('2026-06-15T08:40:00Z'), 0.0002);
  const failing = await seed.conversation(at('2026-06-15T09:05:00Z'));
  await seed.run(failing, at('2026-06-15T09:06:00Z'), { ttftMs: null, error: 'model_timeout' });
  await seed.run(failing, at('2026-06-15T09:20:00Z'), { ttftMs: null, error: 'model_unavailable' });
  // just before the first bucket: outside the range
  const older = await seed.conversation(at('2026-06-14T10:59:00Z'));
  await seed.run(older, at('2026-06-14T10:59:10Z'));

  const { bucket, points } = await overviewSeries(heed.services.db, { scope: null, range: '24h', siteId: seed.siteId, now });
  expect(bucket).toBe('hour');
  expect(points).toHaveLength(24);
  expect(points[0]!.t).toBe('2026-06-14T11:00:00.000Z');
  expect(points.at(-1)!.t).toBe('2026-06-15T10:00:00.000Z');
  expect(points.every((p, i) => i === 0 || Date.parse(p.t) - Date.parse(points[i - 1]!.t) === 3600_000)).toBe(true);

  expect(pointAt(points, '2026-06-15T08:00:00Z')).toEqual({
    t: '2026-06-15T08:00:00.000Z',
    conversations: 1,
    replies: 1,
    failures: 0,
    failuresByKind: {},
    ttftP50Ms: 200,
    ttftP95Ms: 200,
    promptTokens: 100,
    completionTokens: 20,
    titleCostUsd: 0.0002,
    replyCostUsd: 0.001,
  });
  expect(pointAt(points, '2026-06-15T09:00:00Z')).toMatchObject({
    conversations: 1,
    replies: 0,
    failures: 2,
    failuresByKind: { model_timeout: 1, model_unavailable: 1 },
    // failed before any token: no time to first token to report
    ttftP50Ms: null,
    ttftP95Ms: null,
  });
  const quiet = points.filter((p) => !['2026-06-15T08:00:00.000Z', '2026-06-15T09:00:00.000Z'].includes(p.t));
  expect(quiet).toHaveLength(22);
  for (const p of quiet) expect(p).toEqual({ t: p.t, ...EMPTY });
});

test('7d: daily UTC buckets; time to first token p50/p95 interpolate between runs and skip runs without a first token', async () => {
  const seed = await OverviewSeed.site(heed.services);
  const now = at('2026-07-20T23:59:00Z');
  const conversationId = await seed.conversation(at('2026-07-18T00:00:00Z'));
  // 100, 200, …, 2000 ms, spread over the day (UTC)
  for (let i = 1; i <= 20; i++) await seed.run(conversationId, at(`2026-07-18T${String(i).padStart(2, '0')}:00:00Z`), { ttftMs: i * 100 });
  await seed.run(conversationId, at('2026-07-18T23:30:00Z'), { ttftMs: null });
  await seed.run(conversationId, at('2026-07-19T00:00:00Z'), { ttftMs: 4000 });

  const { bucket, points } = await overviewSeries(heed.services.db, { scope: null, range: '7d', siteId: seed.siteId, now });
  expect(bucket).toBe('day');
  expect(points.map((p) => p.t.slice(0, 10))).toEqual([
    '2026-07-14',
    '2026-07-15',
    '2026-07-16',
    '2026-07-17',
    '2026-07-18',
    '2026-07-19',
    '2026-07-20',
  ]);
  expect(points.every((p) => p.t.endsWith('T00:00:00.000Z'))).toBe(true);
  // percentile_cont over 20 values: p50 halfway between the 10th and 11th, p95 5% past the 19th
  expect(pointAt(points, '2026-07-18T00:00:00Z')).toMatchObject({ conversations: 1, replies: 21, ttftP50Ms: 1050, ttftP95Ms: 1905 });
  expect(pointAt(points, '2026-07-19T00:00:00Z')).toMatchObject({ conversations: 0, replies: 1, ttftP50Ms: 4000, ttftP95Ms: 4000 });
  expect(pointAt(points, '2026-07-20T00:00:00Z')).toEqual({ t: '2026-07-20T00:00:00.000Z', ...EMPTY });
});

test("30d: one site or every site; another site's rows never leak into a site's series", async () => {
  const mine = await OverviewSeed.site(heed.services, 'Mine');
  const theirs = await OverviewSeed.site(heed.services, 'Theirs');
  const now = at('2026-09-30T12:00:00Z');
  const a = await mine.conversation(at('2026-09-10T09:00:00Z'));
  await mine.run(a, at('2026-09-10T09:01:00Z'), { promptTokens: 10, completionTokens: 5, costUsd: 0.5 });
  await mine.titleCheck(a, at('2026-09-10T09:02:00Z'), 0.25);
  const b = await theirs.conversation(at('2026-09-10T10:00:00Z'));
  await theirs.run(b, at('2026-09-10T10:01:00Z'), { promptTokens: 1000, completionTokens: 500, costUsd: 2, error: undefined });
  await theirs.run(b, at('2026-09-10T10:05:00Z'), { error: 'spend_cap', ttftMs: null });
  await theirs.titleCheck(b, at('2026-09-10T10:02:00Z'), 1);

  const one = await overviewSeries(heed.services.db, { scope: null, range: '30d', siteId: mine.siteId, now });
  expect(one.points).toHaveLength(30);
  expect(one.points[0]!.t).toBe('2026-09-01T00:00:00.000Z');
  expect(pointAt(one.points, '2026-09-10T00:00:00Z')).toMatchObject({
    conversations: 1,
    replies: 1,
    failures: 0,
    promptTokens: 10,
    completionTokens: 5,
    replyCostUsd: 0.5,
    titleCostUsd: 0.25,
  });

  // every site: other tests' seeds are in other months, so this day holds only these two sites
  const all = await overviewSeries(heed.services.db, { scope: null, range: '30d', now });
  expect(pointAt(all.points, '2026-09-10T00:00:00Z')).toMatchObject({
    conversations: 2,
    replies: 2,
    failures: 1,
    failuresByKind: { spend_cap: 1 },
    promptTokens: 1010,
    completionTokens: 505,
    replyCostUsd: 2.5,
    titleCostUsd: 1.25,
  });
});

test('through the console API: a real reply and a real failure show in the current hour; signed out and bad ranges are refused', async () => {
  const operator = await signedInOperator(heed.services, heed.url, { role: 'agent' });
  const visitor = await heed.visitor();
  const events = visitor.subscribe();
  const answered = await visitor.conversation();
  heed.model.script({ text: 'Our shop opens at nine.' });
  await visitor.send(answered, 'When do you open?');
  await events.waitFor((e) => e.type === 'reply.completed' && e.conversationId === answered);
  const failing = await visitor.conversation();
  heed.model.script({ error: { status: 500 } }, { error: { status: 503 } }, { error: { status: 502 } });
  await visitor.send(failing, 'Hello?');
  await events.waitFor((e) => e.type === 'reply.failed' && e.conversationId === failing);
  events.close();

  const site = await heed.services.db.site.findUniqueOrThrow({ where: { key: heed.siteKey }, select: { id: true } });
  const series = await operator.api.console.overview.series.query({ range: '24h', siteId: site.id });
  expect(series.bucket).toBe('hour');
  expect(series.points).toHaveLength(24);
  const totals = series.points.reduce(
    (sum, p) => ({
      conversations: sum.conversations + p.conversations,
      replies: sum.replies + p.replies,
      failures: sum.failures + p.failures,
    }),
    { conversations: 0, replies: 0, failures: 0 },
  );
  expect(totals).toEqual({ conversations: 2, replies: 1, failures: 1 });
  const last = series.points.at(-1)!;
  // the current hour holds them (unless the hour turned between the sends and the query)
  expect(last.replies + series.points.at(-2)!.replies).toBe(1);
  expect(series.points.some((p) => p.failuresByKind.model_unavailable === 1)).toBe(true);

  const signedOut = consoleClient(heed.url, null);
  await expect(signedOut.console.overview.series.query({ range: '24h' })).rejects.toMatchObject({
    data: { code: 'UNAUTHORIZED', reason: 'console_signed_out' },
  });
  // @ts-expect-error a range the console does not offer
  await expect(operator.api.console.overview.series.query({ range: '1y' })).rejects.toMatchObject({ data: { code: 'BAD_REQUEST' } });
  await expect(operator.api.console.overview.series.query({ range: '7d', siteId: 'not-a-uuid' })).rejects.toMatchObject({
    data: { code: 'BAD_REQUEST', fieldErrors: { siteId: expect.any(Array) } },
  });
});
