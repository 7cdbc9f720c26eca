/// <reference types="mocha" />
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import './knowledge-sources.ts';
import type { HeedKnowledgeSources } from './knowledge-sources.component.ts';
import type { KnowledgeSourceView } from '../state/contract.ts';
import { fakeConsoleApi, owner } from '../test-support/fake-console-api.ts';

const agent = { ...owner, id: 'op-2', role: 'agent' as const };

const sitemap: KnowledgeSourceView = {
  id: 'source-1',
  url: 'https://shop.example/sitemap.xml',
  pages: 12,
  excerpts: 48,
  lastSyncAt: '2026-12-01T10:00:00Z',
  nextSyncAt: '2026-12-02T10:00:00Z',
  syncing: false,
  lastError: null,
  pageErrors: [{ url: 'https://shop.example/old', error: 'HTTP 404' }],
};

async function sources(list: KnowledgeSourceView[], me = owner) {
  const fake = fakeConsoleApi({ knowledgeSources: async () => list });
  const el = await fixture<HeedKnowledgeSources>(
    html`<heed-knowledge-sources .api=${fake.api} .me=${me} siteId="site-1"></heed-knowledge-sources>`,
  );
  const root = el.shadowRoot!;
  await waitUntil(() => !root.textContent!.includes('Loading'), 'sources shown');
  return { el, root, fake };
}

describe('heed-knowledge-sources', () => {
  it('lists each source with its pages, excerpts and the pages it could not read', async () => {
    const { root } = await sources([sitemap]);
    const row = root.querySelector('tr[data-source="https://shop.example/sitemap.xml"]')!;
    expect(row.textContent).to.contain('12');
    expect(row.textContent).to.contain('48');
    expect(row.querySelector('[aria-label="Pages not read"]')!.textContent).to.contain('https://shop.example/old: HTTP 404');
  });

  it('lets an owner add a sitemap or page URL, refusing anything but http(s) beside the field', async () => {
    const { root, fake } = await sources([]);
    const input = root.querySelector<HTMLInputElement>('#source-url')!;
    expect(root.querySelector('label[for="source-url"]')!.textContent).to.equal('Sitemap or page URL');
    input.value = 'ftp://shop.example/';
    root.querySelector('form')!.requestSubmit();
    await waitUntil(() => input.getAttribute('aria-invalid') === 'true');
    expect(fake.callsOf('addKnowledgeSource')).to.have.length(0);
    input.value = 'https://shop.example/sitemap.xml';
    root.querySelector('form')!.requestSubmit();
    await waitUntil(() => fake.callsOf('addKnowledgeSource').length === 1);
    expect(fake.callsOf('addKnowledgeSource')[0]).to.deep.equal(['site-1', 'https://shop.example/sitemap.xml']);
  });

  it('shows an agent the sources without the owner’s controls', async () => {
    const { root } = await sources([sitemap], agent);
    expect(root.querySelector('form')).to.equal(null);
    expect([...root.querySelectorAll('button')].some((b) => b.textContent === 'Sync now')).to.be.false;
  });
});
