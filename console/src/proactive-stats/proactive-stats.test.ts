/// <reference types="mocha" />
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import './proactive-stats.ts';
import type { HeedProactiveStats } from './proactive-stats.component.ts';
import { fakeConsoleApi, owner } from '../test-support/fake-console-api.ts';

async function stats(over: Parameters<typeof fakeConsoleApi>[0] = {}) {
  const fake = fakeConsoleApi(over);
  const el = await fixture<HeedProactiveStats>(
    html`<heed-proactive-stats .api=${fake.api} .me=${owner} siteId="site-1"></heed-proactive-stats>`,
  );
  const root = el.shadowRoot!;
  await waitUntil(() => root.querySelector('.tables'), 'stats shown');
  return { el, root, fake };
}

describe('heed-proactive-stats', () => {
  it('shows the last 7 days: delivered by kind, refused by reason', async () => {
    const { root, fake } = await stats({
      proactiveStats: async () => ({
        delivered: [
          { kind: 'intent', count: 12 },
          { kind: 'check_in', count: 3 },
        ],
        refused: [
          { reason: 'daily_budget', count: 4 },
          { reason: 'unknown_intent', count: 1 },
        ],
      }),
    });
    expect(fake.callsOf('proactiveStats')).to.deep.equal([['site-1', 7]]);
    expect(root.querySelector('h2')!.textContent).to.equal('Unsolicited messages, last 7 days');
    const delivered = root.querySelector('[data-stats=delivered]')!;
    expect(delivered.querySelector('h3')!.textContent).to.equal('Delivered: 15');
    expect([...delivered.querySelectorAll('tbody tr')].map((tr) => tr.textContent)).to.deep.equal(['Intents12', 'Check-ins3']);
    const refused = root.querySelector('[data-stats=refused]')!;
    expect([...refused.querySelectorAll('tbody tr')].map((tr) => tr.textContent)).to.deep.equal([
      'Daily budget used up4',
      'No rule with that name1',
    ]);
  });

  it('says when there is nothing yet', async () => {
    const { root } = await stats();
    expect(root.textContent).to.contain('None delivered.').and.contain('None refused.');
  });

  it('is accessible', async () => {
    const { el } = await stats({ proactiveStats: async () => ({ delivered: [{ kind: 'server', count: 2 }], refused: [] }) });
    await expect(el).shadowDom.to.be.accessible();
  });
});
