import { loadavg } from 'node:os';
import type { TestHeed } from '../test/support/harness.ts';
import { signedInOperator } from '../test/support/console.ts';
import { type ConsoleBundleResult, type BundleTotals, measureConsoleBundle } from './console-bundle.ts';
import { type ConsoleSeed, seedConsoleList } from './console-list-seed.ts';
import { percentile } from './stats.ts';
import { formatSection, formatTable } from './table.ts';

/** The target for every kind of list page on this machine. */
export const TARGET_P95_MS = 50;
/** The console's page size (the list's default). */
const PAGE = 50;

export interface ListKindFigures {
  kind: string;
  n: number;
  p50: number;
  p95: number;
  max: number;
  /** conversations on the last page fetched of this kind (a filter that matches nothing is fast for no reason); points for the overview */
  rows: number;
  /** an overview query, not a list page: the list's target does not apply */
  overview?: boolean;
}

export interface ConsoleListResult {
  seed: ConsoleSeed;
  /** 1-minute load average when the timing began: on two cores, anything above ~2 means queued CPU in every figure */
  loadAverage: number;
  /** false when `console.conversations.list` does not exist yet in this tree */
  listAvailable: boolean;
  listError: string | null;
  kinds: ListKindFigures[];
  bundle: ConsoleBundleResult;
}

type ListInput = {
  siteId?: string;
  filter: 'all' | 'live' | 'input_needed' | 'failed' | 'unread';
  search?: string;
  cursor?: string;
  limit: number;
};
type ListPage = { items: unknown[]; nextCursor: string | null };

/**
 * Console list latency with 100,000 conversations: seeds the stack's own database (SQL, in
 * bulk), signs an operator in (a real session cookie), then calls `console.conversations.list`
 * over HTTP one request at a time, as the console page does, and times each from request to
 * parsed JSON: first pages (all sites, one site), 100 pages deep by cursor, every filter, and
 * full-text search for a common and a rare word. Then the overview's series (24 h, 7 d, 30 d) on
 * the same data, for scale, and the console bundle beside the widget's. Run it alone with
 * `npm run bench -- --only=consoleList`.
 */
export async function measureConsoleList(heed: TestHeed): Promise<ConsoleListResult> {
  const operator = await signedInOperator(heed.services, heed.url, { role: 'agent', email: 'bench-agent@example.test' });
  const seed = await seedConsoleList(heed.config.DATABASE_URL, operator.id);
  const bundle = await measureConsoleBundle();
  const site = await heed.services.db.site.findUniqueOrThrow({ where: { key: 'bench-1' }, select: { id: true } });

  const query = async <T>(path: string, input: unknown): Promise<T> => {
    const res = await fetch(`${heed.url}/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`, {
      headers: { cookie: operator.cookie, origin: heed.url },
    });
    const body = (await res.json()) as { result?: { data?: T }; error?: { message?: string } };
    if (!res.ok || !body.result?.data) throw new Error(`HTTP ${res.status}: ${body.error?.message ?? 'no data'}`);
    return body.result.data;
  };
  const list = (input: ListInput) => query<ListPage>('console.conversations.list', input);
  const loadAverage = Math.round(loadavg()[0]! * 100) / 100;
  try {
    for (let i = 0; i < 5; i++) await list({ filter: 'all', limit: PAGE });
  } catch (err) {
    return { seed, loadAverage, listAvailable: false, listError: err instanceof Error ? err.message : String(err), kinds: [], bundle };
  }

  const kinds: ListKindFigures[] = [];
  const repeat = async (kind: string, times: number, input: ListInput) => {
    const samples: number[] = [];
    let rows = 0;
    for (let i = 0; i < times; i++) {
      const t0 = performance.now();
      rows = (await list(input)).items.length;
      samples.push(performance.now() - t0);
    }
    kinds.push(figures(kind, samples, rows));
  };
  await repeat('first page, all sites', 40, { filter: 'all', limit: PAGE });
  await repeat('first page, one site (70 % of traffic)', 40, { siteId: site.id, filter: 'all', limit: PAGE });

  // deep pages: follow the cursor 100 pages (5,000 conversations) in
  const deep: number[] = [];
  let page = await list({ filter: 'all', limit: PAGE });
  for (let i = 0; i < 100 && page.nextCursor; i++) {
    const t0 = performance.now();
    page = await list({ filter: 'all', cursor: page.nextCursor, limit: PAGE });
    deep.push(performance.now() - t0);
  }
  kinds.push(figures('pages 2–101 by cursor', deep, page.items.length));

  for (const filter of ['live', 'input_needed', 'failed', 'unread'] as const) await repeat(`filter ${filter}`, 30, { filter, limit: PAGE });
  await repeat(`search "${seed.searchWords.common}" (common word)`, 30, { filter: 'all', search: seed.searchWords.common, limit: PAGE });
  await repeat(`search "${seed.searchWords.rare}" (rare word)`, 30, { filter: 'all', search: seed.searchWords.rare, limit: PAGE });
  // the overview's charts read the same tables in bulk (no target in the issue; shown for scale)
  for (const range of ['24h', '7d', '30d'] as const) {
    const samples: number[] = [];
    let points = 0;
    for (let i = 0; i < 10; i++) {
      const t0 = performance.now();
      points = (await query<{ points: unknown[] }>('console.overview.series', { range })).points.length;
      samples.push(performance.now() - t0);
    }
    kinds.push({ ...figures(`overview series ${range}, all sites`, samples, points), overview: true });
  }
  return { seed, loadAverage, listAvailable: true, listError: null, kinds, bundle };
}

function figures(kind: string, samples: number[], rows: number): ListKindFigures {
  const sorted = [...samples].sort((a, b) => a - b);
  const round = (x: number) => Math.round(x * 10) / 10;
  return {
    kind,
    n: sorted.length,
    p50: round(percentile(sorted, 50)),
    p95: round(percentile(sorted, 95)),
    max: round(sorted.at(-1) ?? Number.NaN),
    rows,
  };
}

/** The section as printed. */
export function formatConsoleList(r: ConsoleListResult): string {
  const s = r.seed;
  const notes = [
    `seeded in ${(s.seedMs / 1000).toFixed(1)} s: ${s.conversations} conversations on ${s.sites.length} sites, ${s.visitors} visitors, ${s.messages} messages, ${s.runs} runs, ${s.inputRequests} open questions, ${s.operatorReads} of this operator's read markers`,
    `one request at a time over HTTP (GET /trpc/console.conversations.list, session cookie), ${PAGE} per page; target p95 ≤ ${TARGET_P95_MS} ms`,
    `load average ${r.loadAverage} (1 min) when the timing began${r.loadAverage > 2 ? ': the CPU was shared, every figure includes queueing' : ''}`,
  ];
  const latency = r.listAvailable
    ? formatTable(
        ['page kind', 'n', 'rows', 'p50 ms', 'p95 ms', 'max ms', `p95 ≤ ${TARGET_P95_MS} ms`],
        r.kinds.map((k) => [
          k.kind,
          String(k.n),
          String(k.rows),
          k.p50,
          k.p95,
          k.max,
          k.overview ? '(no target)' : k.p95 <= TARGET_P95_MS ? 'yes' : 'NO',
        ]),
      )
    : `  list latency: not measured, console.conversations.list answered ${r.listError}`;
  return formatSection('5. Console list (100,000 conversations) and bundle', notes, `${latency}\n\n${formatBundle(r.bundle)}`);
}

function formatBundle(b: ConsoleBundleResult): string {
  const kb = (n: number) => n / 1024;
  const row = (label: string, t: BundleTotals) => [label, String(t.files), kb(t.bytes), kb(t.gzipBytes), kb(t.servedBytes)];
  const rows = [
    ...(b.console
      ? [row('console first load (index.html, entry JS, CSS)', b.console.firstLoad), row('console, all files', b.console.all)]
      : []),
    ...(b.widget ? [row('widget first load (widget.js + boot)', b.widget.firstLoad), row('widget, all files', b.widget.all)] : []),
  ];
  const missing = [
    ...(b.console ? [] : ['  console: dist/console absent (build it with `vite build --config vite.console.config.ts`); not measured']),
    ...(b.widget ? [] : ['  widget: dist/widget absent (`npm run build:widget`); section 4 measures a fresh build']),
  ];
  const table =
    rows.length > 0 ? formatTable(['bundle (built files in dist/)', 'files', 'raw KB', 'gzip -9 KB', 'brotli KB (served)'], rows) : '';
  return [table, ...missing].filter(Boolean).join('\n');
}
