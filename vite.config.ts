import { defineConfig, type Plugin } from 'vite';

/**
 * Lit `css` templates are strings the minifier leaves alone; collapsing their whitespace
 * and comments saved ~0.6 KB gzip on the first chunk (measured). Only widget sources,
 * only templates without `${}` interpolation.
 */
function minifyLitCss(): Plugin {
  const squeeze = (body: string) =>
    body
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/\s+/g, ' ')
      .replace(/\s*([{};,>])\s*/g, '$1')
      .replace(/;}/g, '}')
      // inside declaration blocks only: a space after ':' in a selector is a descendant combinator
      .replace(/\{[^{}]*\}/g, (block) => block.replace(/:\s+/g, ':'))
      .trim();
  return {
    name: 'heed-minify-lit-css',
    transform(code, id) {
      if (!id.includes('/widget/src/') || !code.includes('css`')) return null;
      return { code: code.replace(/\bcss`([^`$]*)`/g, (_, body: string) => `css\`${squeeze(body)}\``), map: null };
    },
  };
}

/**
 * Builds the widget into dist/widget/:
 * - `widget.js`, the classic-script loader a site embeds (≈0.4 KB): reads its data-*
 *   options, installs the `window.Heed` queue, imports the first chunk next to it;
 * - `widget-chunks/boot-[hash].js`: launcher, badges, host API, store and event stream;
 * - `widget-chunks/panel-[hash].js`: the chat panel, loaded on first open;
 * - `widget-chunks/purify.es-[hash].js`: DOMPurify, loaded only where `Element.setHTML` is missing.
 * Serve the folder at the site root (/widget.js, /widget-chunks/*); chunks are immutable.
 *
 * Library mode because it keeps Vite's module-preload helper (which assumes the page's
 * own origin and base) out of a script that runs on other people's pages.
 */
export default defineConfig({
  publicDir: false,
  plugins: [minifyLitCss()],
  build: {
    outDir: 'dist/widget',
    emptyOutDir: true,
    target: 'es2022',
    // terser with three passes makes the first chunk ~0.4 KB gzip smaller than the default
    // minifier, which keeps the first load inside its 20 KB budget
    minify: 'terser',
    terserOptions: { compress: { passes: 3 }, format: { comments: false } },
    sourcemap: true,
    lib: {
      entry: { widget: 'widget/src/embed.ts' },
      formats: ['es'],
      fileName: (_format, name) => `${name}.js`,
    },
    rollupOptions: {
      output: {
        chunkFileNames: 'widget-chunks/[name]-[hash].js',
      },
    },
  },
});
