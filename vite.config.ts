import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import ts from 'typescript';
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
 * The indentation inside Lit `html`/`svg` templates reaches the bundle as written (≈0.2 KB brotli).
 * Whitespace that holds a line break renders as one space wherever white-space collapses, so each
 * such run keeps only its line breaks (line numbers stay, for the source maps). The one `pre-wrap`
 * box, the visitor's bubble, is a template written on one line, which this leaves as it is.
 * Quoted attribute values, comments and the content of <pre>, <textarea>, <script> and <style>
 * are copied as they are.
 */
export function minifyLitHtml(): Plugin {
  const raw = /^(pre|textarea|script|style)\b/i;
  /** Squeezes one template's raw text pieces (between `${}`), carrying the HTML state across them. */
  const squeeze = (pieces: string[]) => {
    let quote = '';
    let inTag = false;
    let until = ''; // the end of a comment or raw-text element being copied
    return pieces.map((piece) => {
      let out = '';
      for (let i = 0; i < piece.length; i++) {
        const c = piece[i] as string;
        if (until) {
          if (piece.startsWith(until, i)) {
            out += until;
            i += until.length - 1;
            until = '';
          } else out += c;
          continue;
        }
        if (quote) {
          if (c === quote) quote = '';
          out += c;
          continue;
        }
        if (/\s/.test(c) && piece[i - 1] !== '\\') {
          let j = i;
          while (j < piece.length && /\s/.test(piece[j] as string)) j++;
          const run = piece.slice(i, j);
          out += run.includes('\n') ? run.replace(/[^\n]/g, '') : run;
          i = j - 1;
          continue;
        }
        if (inTag && (c === '"' || c === "'")) quote = c;
        else if (c === '<' && piece.startsWith('<!--', i)) until = '-->';
        else if (c === '<') {
          inTag = true;
          const name = raw.exec(piece.slice(i + 1))?.[1];
          if (name) until = `</${name}`;
          if (name) inTag = false; // its opening tag's attributes are copied with its content
        } else if (c === '>') inTag = false;
        out += c;
      }
      return out;
    });
  };
  return {
    name: 'heed-minify-lit-html',
    transform(code, id) {
      if (!id.includes('/widget/src/') || !/\b(html|svg)`/.test(code)) return null;
      const file = ts.createSourceFile(id, code, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
      const edits: { start: number; end: number; text: string }[] = [];
      const visit = (node: ts.Node) => {
        if (ts.isTaggedTemplateExpression(node) && ts.isIdentifier(node.tag) && /^(html|svg)$/.test(node.tag.text)) {
          const t = node.template;
          // each piece starts one character after its token (the backtick or the `}`)
          const parts = ts.isNoSubstitutionTemplateLiteral(t) ? [t] : [t.head, ...t.templateSpans.map((s) => s.literal)];
          const texts = parts.map((p) => p.rawText ?? '');
          squeeze(texts).forEach((text, k) => {
            const start = (parts[k] as ts.Node).getStart(file) + 1;
            edits.push({ start, end: start + (texts[k] as string).length, text });
          });
        }
        ts.forEachChild(node, visit);
      };
      visit(file);
      let out = code;
      for (const e of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
      return { code: out, map: null };
    },
  };
}

/**
 * The loader imports the first chunk by an absolute URL made from its own `src` (a relative
 * `import()` has no base in a classic script from another origin), so it needs the chunk's
 * hashed file name: this writes it in place of `__HEED_BOOT_CHUNK__` once names are final.
 */
function bootChunkName(): Plugin {
  return {
    name: 'heed-boot-chunk-name',
    generateBundle(_options, bundle) {
      const boot = Object.values(bundle).find((c) => c.type === 'chunk' && c.isEntry && c.name === 'boot');
      const loader = bundle['widget.js'];
      if (!boot || loader?.type !== 'chunk' || !loader.code.includes('__HEED_BOOT_CHUNK__')) {
        this.error('widget.js must import the boot chunk through __HEED_BOOT_CHUNK__');
      }
      loader.code = loader.code.replaceAll('__HEED_BOOT_CHUNK__', JSON.stringify(`./${boot.fileName}`));
    },
  };
}

/**
 * Writes `x.js.br` (brotli 11) and `x.js.gz` (gzip -9) next to every built `.js`, which the
 * API sends to browsers that accept them (api/src/http/static-files.ts): compressing once at
 * the strongest levels costs ~0.3 s of build (measured, the four files one after another)
 * and nothing per request. In `writeBundle`, so the copies hold the bytes on disk, after
 * `bootChunkName` rewrote the loader.
 */
export function precompress(): Plugin {
  const brotli = promisify(brotliCompress);
  const gzipped = promisify(gzip);
  return {
    name: 'heed-precompress',
    async writeBundle(options, bundle) {
      const dir = options.dir ?? 'dist/widget';
      const scripts = Object.keys(bundle).filter((name) => name.endsWith('.js'));
      await Promise.all(
        scripts.map(async (name) => {
          const path = join(dir, name);
          const bytes = await readFile(path);
          const params = {
            [constants.BROTLI_PARAM_QUALITY]: 11,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
          };
          await Promise.all([
            writeFile(`${path}.br`, await brotli(bytes, { params })),
            writeFile(`${path}.gz`, await gzipped(bytes, { level: 9 })),
          ]);
        }),
      );
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
 * - `widget-chunks/attach-[hash].js`: attachments (the files waiting to be sent, files in the thread),
 *   loaded when a visitor first attaches or a thread first shows a file; `attach-upload-request-[hash].js`
 *   with the first upload; `attach-locale-de-[hash].js` and so on, their strings in one language each.
 * - `widget-chunks/locale-de-[hash].js` and so on: one language's strings each, loaded only for a
 *   visitor who reads that language (English is built in).
 * Each `.js` has its precompressed `.js.br` and `.js.gz` beside it (`precompress`), and its
 * source map beside it without being linked from the JS (`sourcemap: 'hidden'`).
 * Serve the folder anywhere (`/widget.js`, `/heed/widget.js`…): every chunk is found next to
 * the loader; chunks are immutable.
 *
 * Library mode because it keeps Vite's module-preload helper (which assumes the page's
 * own origin and base) out of a script that runs on other people's pages.
 */
export default defineConfig({
  publicDir: false,
  plugins: [minifyLitCss(), minifyLitHtml(), bootChunkName(), precompress()],
  build: {
    outDir: 'dist/widget',
    emptyOutDir: true,
    target: 'es2022',
    // terser with three passes makes the first chunk ~0.4 KB gzip smaller than the default
    // minifier, which keeps the first load inside its 20 KB budget
    minify: 'terser',
    // Vite turns on terser's Safari 10 workarounds; es2022 output never runs there (-0.14 KB brotli without them)
    terserOptions: { safari10: false, compress: { passes: 3 }, format: { comments: false } },
    // maps are written for debugging and error reports but not named in the JS: production
    // does not publish them (the API answers 404), and a browser never asks for one
    sourcemap: 'hidden',
    lib: {
      // boot is an entry (not a dynamic import of the loader) so its exports stay whole
      entry: { widget: 'widget/src/embed.ts', boot: 'widget/src/boot.ts' },
      formats: ['es'],
    },
    rollupOptions: {
      // the panel imports lit and the store from the boot chunk, which adds exports to that
      // entry; 'strict' (lib mode's default) split them into a third chunk (+1 request)
      preserveEntrySignatures: 'allow-extension',
      output: {
        entryFileNames: (chunk) => (chunk.name === 'widget' ? 'widget.js' : 'widget-chunks/[name]-[hash].js'),
        // a language's strings (widget/src/i18n/locales/de.ts) as `locale-de-[hash].js`: a visitor loads at most
        // one of them, which is how the bench counts them against the 60 KB budget. Attachments (widget/src/attach/,
        // loaded when a visitor first attaches or a thread first shows a file) as `attach-…`, their strings as
        // `attach-locale-de-…`: the bench counts them on a line of their own
        chunkFileNames: (chunk) => {
          const id = chunk.facadeModuleId ?? '';
          if (id.includes('/widget/src/i18n/locales/')) return 'widget-chunks/locale-[name]-[hash].js';
          if (id.includes('/widget/src/attach/locales/')) return 'widget-chunks/attach-locale-[name]-[hash].js';
          if (id.includes('/widget/src/attach/') && chunk.name !== 'attach') return 'widget-chunks/attach-[name]-[hash].js';
          return 'widget-chunks/[name]-[hash].js';
        },
      },
    },
  },
});
