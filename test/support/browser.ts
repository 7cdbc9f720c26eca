import { chromium, type Browser, type Page } from 'playwright-core';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';

/**
 * Debian's Chromium driven by playwright-core (browser downloads are impossible on our
 * machines). The flags keep it from reaching for the network on its own.
 */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Runs axe-core in the page (it walks open shadow roots) and returns every violation, whatever its impact (a duplicate landmark is "moderate"). */
export async function axeViolations(page: Page): Promise<{ id: string; impact: string; help: string; targets: string[] }[]> {
  // evaluated through the driver, not a script tag: the host pages forbid inline scripts (strict CSP)
  await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            ctx: unknown,
            opts: unknown,
          ) => Promise<{ violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[] }>;
        };
      }
    ).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) }));
  });
}

/** The serious and critical violations of `axeViolations`. */
export async function seriousA11yViolations(page: Page): Promise<{ id: string; impact: string; help: string; targets: string[] }[]> {
  return (await axeViolations(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
}
