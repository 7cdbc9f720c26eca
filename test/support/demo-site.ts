import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, vi } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { TestHeed } from './harness.ts';
import { launchBrowser } from './browser.ts';
import type { Config } from '../../api/src/config.ts';
import { storageKey } from '../../widget/src/state/token-storage.ts';

/** Settings of a browser journey's stack beyond the environment. */
export interface DemoSiteOptions {
  /** host name of the shop's origin (default 127.0.0.1; `localhost` makes shop and API cross-site) */
  shopHost?: string;
}

/**
 * The setting of every browser journey, run the way a customer runs Heed: one real stack
 * in production mode (`NODE_ENV=production`, assets as served) and the demo shop on
 * **another origin** embedding the widget with the site owners' snippet (docs/site-owners/embedding.md) under a strict CSP,
 * and one Debian Chromium, per test file. Registers the vitest hooks that start and stop
 * them; the model server is reset before each test.
 *
 * @example
 * const site = DemoSite.use();
 * test('…', async () => { const page = await site.open(); await site.send(page, 'Hi'); });
 */
/** The longest a journey may take (vitest's default for other tests is 30 s). */
const JOURNEY_TIMEOUT_MS = 90_000;
/** The longest one wait of a page may take before it fails with the locator it waited for. */
const PAGE_WAIT_MS = 30_000;

export class DemoSite {
  heed!: TestHeed;
  browser!: Browser;

  static use(env: Partial<Record<keyof Config, string>> = {}, opts: DemoSiteOptions = {}): DemoSite {
    const site = new DemoSite();
    // A journey drives a browser and a whole stack: beside a CPU-heavy job it may take several times
    // its quiet duration. A page's waits give up well before this (PAGE_WAIT_MS), naming what they awaited.
    vi.setConfig({ testTimeout: JOURNEY_TIMEOUT_MS });
    beforeAll(async () => {
      site.heed = await TestHeed.start({
        site: true,
        shopHost: opts.shopHost,
        env: {
          NODE_ENV: 'production',
          HEED_SECRET: randomBytes(24).toString('hex'),
          DEBOUNCE_MS: '300',
          // A journey that holds a reply (to look at the live state meanwhile) must not see the
          // model request time out and retry under it when a loaded CI machine makes its steps slow:
          // that ended a held reply early and left the journey waiting for a live banner that had gone.
          // The model timeout has its own tests (test/pipeline, test/proactive).
          MODEL_TIMEOUT_MS: '60000',
          ...env,
        },
      });
      site.browser = await launchBrowser();
    });
    afterAll(async () => {
      await site.browser?.close();
      await site.heed?.stop();
    });
    beforeEach(() => site.heed.model.reset());
    afterEach(({ task }) => {
      if (task.result?.state === 'fail') site.printServerSide(task.name);
    });
    return site;
  }

  /** What the server side did, for a failed journey: model requests, runs and the warnings logged. */
  printServerSide(testName: string): void {
    const warnings = this.heed.logs.filter((line) => (JSON.parse(line) as { level: number }).level >= 40);
    console.error(
      [
        `[server side of "${testName}"]`,
        `model requests: ${this.heed.model.requests.length}, in flight: ${this.heed.model.inFlight()}`,
        `runs so far in this file: ${JSON.stringify(this.heed.runs.map((r) => r.outcome))}`,
        `warnings and errors logged (${warnings.length}, the last 20):`,
        ...warnings.slice(-20),
      ].join('\n'),
    );
  }

  /** A new visitor (fresh browser context) on the shop's `path`, page errors and CSP violations logged. */
  async page(path = '/', viewport = { width: 1280, height: 800 }): Promise<Page> {
    const page = await this.browser.newPage({ viewport });
    page.setDefaultTimeout(PAGE_WAIT_MS);
    page.on('pageerror', (err) => console.error('[page]', err.message));
    await recordCspViolations(page);
    await page.goto(`${this.heed.shopUrl}${path}`);
    return page;
  }

  /** Changes the demo site's settings as the console does: its row, then the policy cache, so the next page load sees them. */
  async configure(data: Parameters<TestHeed['services']['db']['site']['update']>[0]['data']): Promise<void> {
    await this.heed.services.db.site.update({ where: { key: 'demo' }, data, select: { id: true } });
    this.heed.services.sites.clear();
  }

  /** The demo shop with the chat opened from its launcher, ready to type. */
  async open(viewport?: { width: number; height: number }): Promise<Page> {
    const page = await this.page('/', viewport);
    await page.getByRole('button', { name: 'Open chat' }).click();
    await page.getByRole('textbox', { name: 'Message' }).waitFor();
    return page;
  }

  /**
   * Shows the conversation list beside the thread, as a visitor does with ☰: a floating panel
   * on a wide screen is compact until they do (or until they have several conversations).
   */
  async showConversations(page: Page): Promise<void> {
    await page.locator('heed-panel .icon-button[aria-expanded]').click();
    await page.locator('heed-sidebar:not([hidden])').waitFor();
  }

  /** Types `text` in the composer and presses Enter, as a visitor does. */
  async send(page: Page, text: string): Promise<void> {
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill(text);
    await box.press('Enter');
  }

  /** The key under which the widget keeps `kind` for the demo site in the shop's storage. */
  storageKey(kind: 'visitor' | 'view' | 'outbox'): string {
    return storageKey(kind, 'demo', `${this.heed.url}/`);
  }
}

/** Collects the page's CSP violations (read them with `cspViolations`), from before any script runs. */
export async function recordCspViolations(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (e) =>
      seen.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`),
    );
  });
}

export function cspViolations(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __cspViolations?: string[] }).__cspViolations ?? []);
}
