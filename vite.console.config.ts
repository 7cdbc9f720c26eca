import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { precompress } from './vite.config.ts';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * Builds the operator console into dist/console/ (`npm run build:console`), a bundle of its
 * own that no host page ever loads:
 * - `index.html`, served at `/admin/` (revalidated on every load: its chunk names change);
 * - `assets/index-[hash].js`: Lit, the app shell and every view but the overview's charts;
 * - `assets/overview-chart-[hash].js`: uPlot and the chart element, imported when the
 *   overview first opens (most visits are to the conversation list).
 * Each `.js` has its `.br` and `.gz` beside it (the widget build's `precompress`), served by
 * api/src/http/console-page.ts with the same ETag and immutable caching as the widget.
 * No inline script or style is emitted, so the page runs under `script-src 'self'`.
 */
export default defineConfig({
  root: here('console'),
  base: '/admin/',
  publicDir: false,
  plugins: [precompress()],
  build: {
    outDir: here('dist/console'),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: 'hidden',
    // every browser the console supports has modulepreload; the polyfill would be dead code
    modulePreload: { polyfill: false },
  },
});
