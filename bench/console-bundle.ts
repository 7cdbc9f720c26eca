import { existsSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ASSET = /\.(m?js|css|html)$/;

/** Byte totals of a group of built files. */
export interface BundleTotals {
  files: number;
  bytes: number;
  /** gzip -9 of each file (what the build's `.gz` copies hold) */
  gzipBytes: number;
  /** what a browser accepting br receives: the build's `.br` copy, or the file itself when it has none */
  servedBytes: number;
}

export interface ConsoleBundleResult {
  /** null when dist/console is absent (the console is built by `vite build --config vite.console.config.ts`) */
  console: { firstLoad: BundleTotals; all: BundleTotals } | null;
  /** the widget as `npm start` serves it (dist/widget); null when not built */
  widget: { firstLoad: BundleTotals; all: BundleTotals } | null;
}

/**
 * The console's bundle beside the widget's, measured on the built files in dist/ (neither is
 * built here: section 4 already builds the widget, and building twice would double its ~20 s).
 * First load: the console's index.html, entry chunk and CSS (the chart and locale chunks load
 * later); the widget's loader and boot chunk, as in section 4.
 */
export async function measureConsoleBundle(root = ROOT): Promise<ConsoleBundleResult> {
  const measure = async (dir: string, firstLoad: RegExp) => {
    const files = await measureDir(join(root, dir));
    return files.length === 0 ? null : { firstLoad: total(files.filter((f) => firstLoad.test(f.name))), all: total(files) };
  };
  return {
    console: await measure('dist/console', /^(index\.html|assets\/index-[^/]*\.(js|css))$/),
    widget: await measure('dist/widget', /(^|\/)(widget|boot-[^/]*)\.js$/),
  };
}

interface Measured {
  name: string;
  bytes: number;
  gzipBytes: number;
  servedBytes: number;
}

async function measureDir(dir: string): Promise<Measured[]> {
  if (!existsSync(dir)) return [];
  const names = (await readdir(dir, { recursive: true })).filter((name) => ASSET.test(name)).sort();
  return Promise.all(
    names.map(async (name) => {
      const body = await readFile(join(dir, name));
      const br = await stat(join(dir, `${name}.br`)).catch(() => null);
      return {
        name: name.split('\\').join('/'),
        bytes: body.length,
        gzipBytes: gzipSync(body, { level: 9 }).length,
        servedBytes: br?.size ?? body.length,
      };
    }),
  );
}

function total(files: Measured[]): BundleTotals {
  return files.reduce(
    (sum, f) => ({
      files: sum.files + 1,
      bytes: sum.bytes + f.bytes,
      gzipBytes: sum.gzipBytes + f.gzipBytes,
      servedBytes: sum.servedBytes + f.servedBytes,
    }),
    { files: 0, bytes: 0, gzipBytes: 0, servedBytes: 0 },
  );
}
