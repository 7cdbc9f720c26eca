import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { formatSection, formatTable } from './table.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Where a widget build config may live, most specific first. */
const VITE_CONFIGS = [
  'widget/vite.config.ts',
  'widget/vite.config.mts',
  'widget/vite.config.js',
  'vite.config.ts',
  'vite.config.mts',
  'vite.config.js',
];
/** Folders that may hold an already built widget, and which of their files count; the first with any wins. */
const PREBUILT = [
  { dir: 'dist/widget', match: /\.(m?js|css)$/ },
  { dir: 'widget/dist', match: /\.(m?js|css)$/ },
  { dir: 'dist', match: /^widget[^/]*\.js$/ },
];
const ASSET = /\.(m?js|css)$/;
const BUILD_TIMEOUT_MS = 90_000;

export interface BundleFile {
  file: string;
  bytes: number;
  gzipBytes: number;
  /** body bytes the API sends a browser that accepts brotli: the build's `.br` copy, or the file itself when there is none */
  servedBytes: number;
}

export interface BundleSizeResult {
  /** what was measured: a fresh `vite build`, files already on disk, or nothing yet */
  source: 'vite build' | 'prebuilt' | 'none';
  config: string | null;
  files: BundleFile[];
  buildMs: number | null;
  /** why the build failed, when it did (the section then falls back to prebuilt files) */
  buildError: string | null;
}

/**
 * Gzip -9 sizes of the widget bundle. With a Vite config present, builds into a temporary folder
 * (so the working tree is untouched) and measures that; otherwise measures a bundle already in
 * `dist/widget*.js` or `widget/dist/`; otherwise reports that there is none. Never throws: the
 * widget is being written while this bench exists, and a broken build is a note, not a crash.
 */
export async function measureBundleSize(opts: { root?: string } = {}): Promise<BundleSizeResult> {
  const root = opts.root ?? ROOT;
  const config = VITE_CONFIGS.find((path) => existsSync(join(root, path))) ?? null;
  let buildError: string | null = null;
  if (config) {
    const outDir = await mkdtemp(join(tmpdir(), 'heed-bench-widget-'));
    try {
      const started = performance.now();
      await viteBuild(join(root, config), outDir);
      const buildMs = Math.round(performance.now() - started);
      const files = await measureFiles(outDir, (name) => ASSET.test(name));
      if (files.length > 0) return { source: 'vite build', config, files, buildMs, buildError: null };
      buildError = 'the build wrote no .js or .css file';
    } catch (err) {
      buildError = firstLines(err);
    } finally {
      await rm(outDir, { recursive: true, force: true });
    }
  }
  let prebuilt: BundleFile[] = [];
  for (const { dir, match } of PREBUILT) {
    prebuilt = await measureFiles(join(root, dir), (name) => match.test(name), root);
    if (prebuilt.length > 0) break;
  }
  return { source: prebuilt.length > 0 ? 'prebuilt' : 'none', config, files: prebuilt, buildMs: null, buildError };
}

async function viteBuild(configPath: string, outDir: string): Promise<void> {
  const vite = join(ROOT, 'node_modules/.bin/vite');
  if (!existsSync(vite)) throw new Error('vite is not installed (node_modules/.bin/vite missing)');
  await promisify(execFile)(vite, ['build', '--config', configPath, '--outDir', outDir, '--emptyOutDir', '--logLevel', 'error'], {
    cwd: dirname(configPath),
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    timeout: BUILD_TIMEOUT_MS,
    maxBuffer: 16 * 1024 * 1024,
  });
}

/** Sizes of the matching files under `dir` (recursively), named relative to `base`; none when `dir` is missing. */
async function measureFiles(dir: string, keep: (name: string) => boolean, base = dir): Promise<BundleFile[]> {
  if (!existsSync(dir)) return [];
  const names = (await readdir(dir, { recursive: true })).filter(keep).sort();
  return Promise.all(
    names.map(async (name) => {
      const bytes = await readFile(join(dir, name));
      const brotli = await stat(join(dir, `${name}.br`)).catch(() => null);
      return {
        file: relative(base, join(dir, name)),
        bytes: bytes.length,
        gzipBytes: gzipSync(bytes, { level: 9 }).length,
        servedBytes: brotli?.size ?? bytes.length,
      };
    }),
  );
}

function firstLines(err: unknown): string {
  const e = err as { stderr?: string; message?: string; killed?: boolean };
  if (e.killed) return `vite build took over ${BUILD_TIMEOUT_MS / 1000} s and was stopped`;
  // Vite's first line is only "Build failed in 12ms"; the cause follows it.
  const lines = (e.stderr?.trim() || e.message || String(err))
    .replace(/\x1b\[[0-9;]*m/g, '')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  return (lines.slice(0, 5).join(' | ') || 'unknown error').slice(0, 400);
}

/** The section as printed. */
export function formatBundleSize(r: BundleSizeResult): string {
  const notes = [
    r.config ? `vite config: ${r.config}` : 'no vite config found (looked for widget/vite.config.* and vite.config.*)',
    ...(r.buildError ? [`vite build failed: ${r.buildError}`] : []),
    ...(r.buildMs !== null ? [`vite build into a temporary folder took ${r.buildMs} ms`] : []),
    "served: response body bytes to a browser that accepts br (the build's .br copy; the file as is without one), headers not counted",
  ];
  if (r.files.length === 0) {
    return formatSection(
      '4. Bundle sizes',
      notes,
      r.buildError ? '  widget: build failed, no bundle to measure' : '  widget: not built yet',
    );
  }
  const kb = (n: number) => n / 1024;
  const sum = (files: typeof r.files) =>
    files.reduce((acc, f) => ({ bytes: acc.bytes + f.bytes, gzip: acc.gzip + f.gzipBytes, served: acc.served + f.servedBytes }), {
      bytes: 0,
      gzip: 0,
      served: 0,
    });
  const total = sum(r.files);
  const totalRow = (label: string, t: ReturnType<typeof sum>) => [
    label,
    kb(t.bytes),
    kb(t.gzip),
    String(t.gzip),
    kb(t.served),
    String(t.served),
  ];
  // Budgets from the widget issue: the loader plus its first chunk ≤ 20 KB, everything ≤ 60 KB.
  const firstLoad = sum(r.files.filter((f) => /(^|\/)(widget|boot-[^/]*)\.js$/.test(f.file)));
  const withoutSanitizer = sum(r.files.filter((f) => !/purify/.test(f.file)));
  // A visitor loads at most one language's strings (`locale-*.js`, `attach-locale-*.js`): each line counts the largest.
  const largest = (files: BundleFile[]) =>
    files.reduce<BundleFile[]>((top, f) => (top[0] && top[0].gzipBytes >= f.gzipBytes ? top : [f]), []);
  const locales = r.files.filter((f) => /(^|\/)locale-[^/]*\.js$/.test(f.file));
  // Attachments (`attach-*.js`: the code, the upload request, a language's strings), loaded when a visitor first
  // attaches a file or a thread first shows one: a line of their own, outside the 60 KB.
  const attachLocales = r.files.filter((f) => /(^|\/)attach-locale-[^/]*\.js$/.test(f.file));
  const attachCode = r.files.filter((f) => /(^|\/)attach-[^/]*\.js$/.test(f.file) && !attachLocales.includes(f));
  const attach = sum([...attachCode, ...largest(attachLocales)]);
  const oneLanguage = sum([
    ...r.files.filter((f) => !locales.includes(f) && !attachCode.includes(f) && !attachLocales.includes(f)),
    ...largest(locales),
  ]);
  return formatSection(
    `4. Bundle sizes (${r.source}, gzip -9, and as served)`,
    notes,
    formatTable(
      ['file', 'raw KB', 'gzip -9 KB', 'gzip bytes', 'served KB', 'served bytes'],
      [
        ...r.files.map((f) => [f.file, kb(f.bytes), kb(f.gzipBytes), String(f.gzipBytes), kb(f.servedBytes), String(f.servedBytes)]),
        totalRow('first load (widget.js + boot), budget 20 KB', firstLoad),
        totalRow('all but the sanitizer fallback (Chromium, Firefox)', withoutSanitizer),
        totalRow('everything one visitor can load (the largest language), budget 60 KB', oneLanguage),
        totalRow('attach (loaded when a visitor first attaches or a thread first shows a file; the largest language)', attach),
        totalRow('all files (every language)', total),
      ],
    ),
  );
}
