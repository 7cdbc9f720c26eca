/// <reference types="mocha" />
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import './knowledge-sources.ts';
import type { HeedKnowledgeSources } from './knowledge-sources.component.ts';
import type { KnowledgeSourceView } from '../state/contract.ts';
import { fakeConsoleApi, owner } from '../test-support/fake-console-api.ts';

const agent = { ...owner, id: 'op-2', role: 'agent' as const };

const sitemap: KnowledgeSourceView = {
  id: 'source-1',
  kind: 'site',
  url: 'https://shop.example/sitemap.xml',
  name: null,
  bytes: null,
  answer: null,
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

  const text = (over: Partial<KnowledgeSourceView>): KnowledgeSourceView => ({
    ...sitemap,
    url: null,
    pageErrors: [],
    nextSyncAt: null,
    pages: 1,
    excerpts: 1,
    ...over,
  });

  it('lists files and snippets apart from the website, and uploads a file an owner picks', async () => {
    const file = text({ id: 'file-1', kind: 'file', name: 'warranty.pdf', bytes: 48_000, excerpts: 3 });
    const snippet = text({ id: 'snip-1', kind: 'snippet', name: 'Do you ship to Iceland?', answer: 'Not yet: Nordic countries only.' });
    const { root, fake } = await sources([sitemap, file, snippet]);
    const files = root.querySelector('heed-knowledge-files')!.shadowRoot!;
    const snippets = root.querySelector('heed-knowledge-snippets')!.shadowRoot!;
    await waitUntil(
      () => files.querySelector('[data-file="warranty.pdf"]') && snippets.querySelector('[data-snippet="snip-1"]'),
      'files and snippets shown',
    );
    expect(files.querySelector('[data-file="warranty.pdf"]')!.textContent).to.contain('48 KB, 3 excerpts');
    expect(snippets.querySelector('[data-snippet="snip-1"]')!.textContent).to.contain('Not yet: Nordic countries only.');
    expect(root.querySelectorAll('tr[data-source]')).to.have.length(1);

    const picker = files.querySelector<HTMLInputElement>('#knowledge-file')!;
    const transfer = new DataTransfer();
    transfer.items.add(new File(['# Warranty\n\nTwo years.'], 'warranty.md', { type: 'text/markdown' }));
    picker.files = transfer.files;
    files.querySelector('form')!.requestSubmit();
    await waitUntil(() => fake.callsOf('uploadKnowledgeFile').length === 1, 'uploaded');
    const [siteId, name, base64] = fake.callsOf('uploadKnowledgeFile')[0] as [string, string, string];
    expect([siteId, name, atob(base64)]).to.deep.equal(['site-1', 'warranty.md', '# Warranty\n\nTwo years.']);
  });

  it('adds a snippet, refusing an empty answer beside its field', async () => {
    const { root, fake } = await sources([]);
    const snippets = root.querySelector('heed-knowledge-snippets')!.shadowRoot!;
    await waitUntil(() => snippets.querySelector('form'), 'form shown');
    expect(snippets.querySelector('label[for="snippet-question"]')!.textContent).to.equal('Question');
    snippets.querySelector<HTMLTextAreaElement>('#snippet-question')!.value = 'Do you ship to Iceland?';
    snippets.querySelector('form')!.requestSubmit();
    const answer = snippets.querySelector<HTMLTextAreaElement>('#snippet-answer')!;
    await waitUntil(() => answer.getAttribute('aria-invalid') === 'true', 'the empty answer is refused');
    expect(fake.callsOf('saveSnippet')).to.have.length(0);
    answer.value = 'Not yet.';
    snippets.querySelector('form')!.requestSubmit();
    await waitUntil(() => fake.callsOf('saveSnippet').length === 1, 'saved');
    expect(fake.callsOf('saveSnippet')[0]).to.deep.equal(['site-1', { question: 'Do you ship to Iceland?', answer: 'Not yet.' }]);
  });

  it('lists unanswered questions with their count, hiding a private conversation’s words', async () => {
    const fake = fakeConsoleApi({
      knowledgeSources: async () => [],
      unansweredQuestions: async () => ({
        total: 2,
        lastWeek: 1,
        questions: [
          { id: 'q-1', conversationId: 'c-1', text: 'Do you ship to Iceland?', createdAt: '2026-12-01T10:00:00Z' },
          { id: 'q-2', conversationId: 'c-2', text: null, createdAt: '2026-11-01T10:00:00Z' },
        ],
      }),
    });
    const el = await fixture<HeedKnowledgeSources>(
      html`<heed-knowledge-sources .api=${fake.api} .me=${owner} siteId="site-1"></heed-knowledge-sources>`,
    );
    const list = el.shadowRoot!.querySelector('heed-unanswered-questions')!.shadowRoot!;
    await waitUntil(() => list.querySelector('[data-question="q-1"]'), 'questions shown');
    expect(list.querySelector('.count')!.textContent).to.contain('2 questions');
    expect(list.querySelector('[data-question="q-1"]')!.textContent).to.contain('“Do you ship to Iceland?”');
    expect(list.querySelector('[data-question="q-2"]')!.textContent).to.contain('words hidden');
    list.querySelector<HTMLButtonElement>('[data-question="q-1"] button')!.click();
    await waitUntil(() => fake.callsOf('dismissUnanswered').length === 1, 'dismissed');
  });

  it('shows an agent the sources without the owner’s controls', async () => {
    const { root } = await sources([sitemap], agent);
    expect(root.querySelector('form')).to.equal(null);
    expect([...root.querySelectorAll('button')].some((b) => b.textContent === 'Sync now')).to.be.false;
  });
});
