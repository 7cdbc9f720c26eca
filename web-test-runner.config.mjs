import { esbuildPlugin } from '@web/dev-server-esbuild';
import { playwrightLauncher } from '@web/test-runner-playwright';

/**
 * Widget component tests in Debian's Chromium (`apt-get install -y chromium`); Playwright's
 * own browser downloads are impossible on these machines. See shared STACK.md "Browser tests".
 */
export default {
  files: ['widget/src/**/*.test.ts'],
  nodeResolve: true,
  concurrency: 4,
  plugins: [esbuildPlugin({ ts: true, tsconfig: './tsconfig.json', target: 'auto' })],
  browsers: [
    playwrightLauncher({
      product: 'chromium',
      launchOptions: {
        executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
        headless: true,
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
      },
    }),
  ],
  filterBrowserLogs: ({ args }) => !String(args[0]).includes('Lit is in dev mode'),
  testFramework: { config: { timeout: 5000 } },
};
