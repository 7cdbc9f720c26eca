import { afterAll, beforeAll, expect, test } from 'vitest';
import { TestHeed } from '../support/harness.ts';

const METRICS_TOKEN = 'metrics-token-for-tests-0123456789';
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

let heed: TestHeed;
/** no METRICS_TOKEN, one trusted proxy */
let proxied: TestHeed;
beforeAll(async () => {
  [heed, proxied] = await Promise.all([TestHeed.start({ env: { METRICS_TOKEN } }), TestHeed.start({ env: { TRUST_PROXY: '1' } })]);
});
afterAll(() => Promise.all([heed?.stop(), proxied?.stop()]));

const scrape = (url: string, token?: string) =>
  fetch(`${url}/metrics`, token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } });

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a text exposition (comments skipped). */
function samples(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)/.exec(line);
      if (!m) throw new Error(`not a sample line: ${line}`);
      const labels = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1]!, l[2]!]));
      return { name: m[1]!, labels, value: Number(m[3]) };
    });
}

/** The value of one sample; labels must match exactly those given. */
function sampleValue(all: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  return all.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;
}

test('/metrics refuses a request without the token, with a wrong one, and everyone when METRICS_TOKEN is unset', async () => {
  for (const token of [undefined, 'wrong-metrics-token-0123456789', `${METRICS_TOKEN}x`]) {
    const res = await scrape(heed.url, token);
    expect(res.status).toBe(401);
    expect(await res.text()).not.toContain('heed_');
  }
  expect((await scrape(proxied.url)).status).toBe(401);
  expect((await scrape(proxied.url, METRICS_TOKEN)).status).toBe(401);
});

test('after a send and a completed reply (one retry on the way), every heed metric is exposed with sensible values and no id in a label', async () => {
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  const events = visitor.subscribe();
  // the first attempt fails with a 503 (retried), the second answers
  heed.model.script({ error: { status: 503 } }, { text: 'Your order ships tomorrow.', chunkSize: 5 });
  await heed.until(
    'the stream to be open',
    async () => sampleValue(samples(await (await scrape(heed.url, METRICS_TOKEN)).text()), 'heed_sse_connections') === 1,
  );
  await visitor.send(conversationId, 'where is my order?');
  await events.waitFor((e) => e.type === 'reply.completed');
  await heed.until('the run to be recorded', () => heed.runs.some((r) => r.conversationId === conversationId && r.outcome === 'completed'));
  await heed.titlePass();

  const res = await scrape(heed.url, METRICS_TOKEN);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const all = samples(await res.text());

  expect(sampleValue(all, 'heed_sends_total')).toBeGreaterThanOrEqual(1);
  expect(sampleValue(all, 'heed_send_group_sends_bucket', { le: '1' })).toBeGreaterThanOrEqual(1);
  expect(sampleValue(all, 'heed_batches_total')).toBeGreaterThanOrEqual(1);
  expect(sampleValue(all, 'heed_batch_messages_count')).toBeGreaterThanOrEqual(1);
  expect(sampleValue(all, 'heed_batch_messages_bucket', { le: '1' })).toBeGreaterThanOrEqual(1);
  expect(sampleValue(all, 'heed_runs_total', { outcome: 'completed' })).toBeGreaterThanOrEqual(1);
  expect(sampleValue(all, 'heed_run_duration_seconds_count', { outcome: 'completed' })).toBeGreaterThanOrEqual(1);
  expect(sampleValue(all, 'heed_reply_first_token_seconds_count')).toBeGreaterThanOrEqual(1);
  expect(sampleValue(all, 'heed_reply_first_token_seconds_sum')).toBeGreaterThan(0);
  expect(sampleValue(all, 'heed_model_errors_total', { kind: 'model_unavailable' })).toBeGreaterThanOrEqual(1);
  expect(sampleValue(all, 'heed_model_retries_total')).toBeGreaterThanOrEqual(1);
  expect(sampleValue(all, 'heed_sse_connections')).toBe(1);
  expect(sampleValue(all, 'heed_sse_streams_stalled')).toBe(0);
  expect(sampleValue(all, 'heed_sse_stalled_closed_total')).toBe(0);
  expect(sampleValue(all, 'heed_event_fanout_lag_seconds_count', { kind: 'durable' })).toBeGreaterThanOrEqual(1);
  expect(sampleValue(all, 'heed_event_fanout_lag_seconds_count', { kind: 'live' })).toBeGreaterThanOrEqual(1);
  expect(sampleValue(all, 'heed_title_checks_total', { outcome: 'changed' })).toBeGreaterThanOrEqual(1);
  expect(sampleValue(all, 'heed_title_cost_usd_total')).toBeGreaterThan(0);
  expect(sampleValue(all, 'heed_db_pool_clients', { state: 'waiting' })).toBeGreaterThanOrEqual(0);
  expect(sampleValue(all, 'heed_db_pool_clients', { state: 'total' })).toBeGreaterThanOrEqual(1);
  expect(sampleValue(all, 'heed_redis_up')).toBe(1);
  expect(sampleValue(all, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);

  for (const s of all) for (const v of Object.values(s.labels)) expect(v).not.toMatch(UUID);
  events.close();
  await heed.until(
    'the stream to be closed',
    async () => sampleValue(samples(await (await scrape(heed.url, METRICS_TOKEN)).text()), 'heed_sse_connections') === 0,
  );
});

test('every response carries X-Request-Id: a fresh one without a trusted proxy, the proxy’s own (when sane) behind one', async () => {
  const fresh = await Promise.all([fetch(`${heed.url}/healthz`), fetch(`${heed.url}/nowhere`), scrape(heed.url)]);
  const ids = fresh.map((r) => r.headers.get('x-request-id'));
  for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9._-]{1,64}$/);
  expect(new Set(ids).size).toBe(ids.length);

  const given = { 'x-request-id': 'lb-req.0042_abc' };
  const ignored = await fetch(`${heed.url}/healthz`, { headers: given });
  expect(ignored.headers.get('x-request-id')).not.toBe('lb-req.0042_abc');
  const echoed = await fetch(`${proxied.url}/healthz`, { headers: given });
  expect(echoed.headers.get('x-request-id')).toBe('lb-req.0042_abc');
  // tRPC responses too
  const trpc = await fetch(`${proxied.url}/trpc/conversation.list`, { headers: given });
  expect(trpc.headers.get('x-request-id')).toBe('lb-req.0042_abc');

  for (const insane of ['a'.repeat(65), 'has space', 'semi;colon', '%C3%BCnicode']) {
    const res = await fetch(`${proxied.url}/healthz`, { headers: { 'x-request-id': insane } });
    const id = res.headers.get('x-request-id');
    expect(id).toMatch(/^[A-Za-z0-9._-]{1,64}$/);
    expect(id).not.toBe(insane);
  }
});
