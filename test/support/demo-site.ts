import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { TestHeed } from './harness.ts';
import { launchBrowser } from './browser.ts';
import type { Config } from '../../api/src/config.ts';

/**
 * The setting of every browser journey: one real stack serving the demo host site (the
 * widget embedded by its script tag) and one Debian Chromium, per test file. Registers the
 * vitest hooks that start and stop them; the model server is reset before each test.
 *
 * @example
 * const site = DemoSite.use();
 * test('…', async () => { const page = await site.open(); await site.send(page, 'Hi'); });
 */
export class DemoSite {
  heed!: TestHeed;
  browser!: Browser;

  static use(env: Partial<Record<keyof Config, string>> = {}): DemoSite {
    const site = new DemoSite();
    beforeAll(async () => {
      site.heed = await TestHeed.start({ site: true, env: { DEBOUNCE_MS: '300', ...env } });
      site.browser = await launchBrowser();
    });
    afterAll(async () => {
      await site.browser?.close();
      await site.heed?.stop();
    });
    beforeEach(() => site.heed.model.reset());
    return site;
  }

  /** A new visitor (fresh browser context) on `path`, page errors logged. */
  async page(path = '/', viewport = { width: 1280, height: 800 }): Promise<Page> {
    const page = await this.browser.newPage({ viewport });
    page.on('pageerror', (err) => console.error('[page]', err.message));
    await page.goto(`${this.heed.url}${path}`);
    return page;
  }

  /** The demo shop with the chat opened from its launcher, ready to type. */
  async open(viewport?: { width: number; height: number }): Promise<Page> {
    const page = await this.page('/', viewport);
    await page.getByRole('button', { name: 'Open chat' }).click();
    await page.getByRole('textbox', { name: 'Message' }).waitFor();
    return page;
  }

  /** Types `text` in the composer and presses Enter, as a visitor does. */
  async send(page: Page, text: string): Promise<void> {
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill(text);
    await box.press('Enter');
  }
}
