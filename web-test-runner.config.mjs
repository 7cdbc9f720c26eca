import { readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { playwrightLauncher } from '@web/test-runner-playwright';

/**
 * Vite's lazy `import.meta.glob('./folder/*.ext')` for the tests' dev server, which has no
 * such thing: the widget lists its language files that way (widget/src/i18n/catalog.ts).
 * Only that form: one relative folder, one `*`.
 */
function importMetaGlob() {
  const glob = /import\.meta\.glob(?:<[^>]*>)?\(\s*(['"])(\.\.?\/[^'"*]*)\*([^'"*]*)\1\s*\)/g;
  return {
    name: 'heed-import-meta-glob',
    transform(context) {
      if (typeof context.body !== 'string' || !context.body.includes('import.meta.glob')) return;
      const dir = dirname(join(process.cwd(), context.path));
      const body = context.body.replace(glob, (_, _quote, folder, suffix) => {
        const files = readdirSync(join(dir, folder))
          .filter((name) => name.endsWith(suffix))
          .sort();
        return `{${files.map((name) => `${JSON.stringify(folder + name)}: () => import(${JSON.stringify(folder + name)})`).join(',')}}`;
      });
      return { body };
    },
  };
}

/**
 * Widget and console component tests in Debian's Chromium (`apt-get install -y chromium`) at
 * /usr/bin/chromium (or CHROMIUM_PATH), driven by playwright's launcher: web-test-runner's own
 * browser download needs internet access at test time, which CI and offline machines lack.
 */
export default {
  files: ['widget/src/**/*.test.ts', 'console/src/**/*.test.ts'],
  nodeResolve: true,
  // one page per core: four pages on CI's two cores starved the axe checks past their timeout
  concurrency: Math.min(4, availableParallelism()),
  plugins: [esbuildPlugin({ ts: true, tsconfig: './tsconfig.json', target: 'auto' }), importMetaGlob()],
  browsers: [
    playwrightLauncher({
      product: 'chromium',
      launchOptions: {
        executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
        headless: true,
        // --lang: the widget speaks the browser's language, and the tests pin English names
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--lang=en-US'],
      },
    }),
  ],
  filterBrowserLogs: ({ args }) => !String(args[0]).includes('Lit is in dev mode'),
  // a hang guard, not a speed check: axe walking shadow trees takes seconds on a busy machine
  testFramework: { config: { timeout: 20_000 } },
};
