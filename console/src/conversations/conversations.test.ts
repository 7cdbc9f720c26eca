/// <reference types="mocha" />
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import './conversations.ts';
import type { HeedConsoleConversations } from './conversations.component.ts';
import { fakeConsoleApi, item, owner } from '../test-support/fake-console-api.ts';
import type { ConversationItem } from '../state/contract.ts';

const at = (s: number) => new Date(Date.UTC(2026, 0, 2, 12, 0, s)).toISOString();

async function list(first: ConversationItem[], nextCursor: string | null = null, more: ConversationItem[] = []) {
  const fake = fakeConsoleApi({ conversations: async (input) => (input.cursor ? { items: more, nextCursor: null } : { items: first, nextCursor }) });
  const el = await fixture<HeedConsoleConversations>(html`<heed-console-conversations .api=${fake.api} .me=${owner}></heed-console-conversations>`);
  const root = el.shadowRoot!;
  const titles = () => [...root.querySelectorAll('li heed-conversation-row')].map((r) => r.shadowRoot!.querySelector('.title')!.textContent);
  const states = () => [...root.querySelectorAll('li heed-conversation-row')].map((r) => r.shadowRoot!.querySelector('button')!.dataset.state);
  await waitUntil(() => root.querySelectorAll('li').length === first.length && fake.openStreams === 1, 'first page shown');
  return { el, root, fake, titles, states };
}

describe('heed-console-conversations', () => {
  it('lists conversations in a list named Conversations, each row with its title and its attention state', async () => {
    const { root, titles, states } = await list([item({ title: 'Boots', attention: 'live' }), item({ title: 'Returns', attention: 'unviewed', failed: true })]);
    expect(root.querySelector('ul')!.getAttribute('aria-label')).to.equal('Conversations');
    expect(titles()).to.deep.equal(['Boots', 'Returns']);
    expect(states()).to.deep.equal(['live', 'unviewed']);
    expect(root.querySelectorAll('li')[1]!.querySelector('.failed')!.textContent).to.equal('Failed');
  });

  it('shows a new conversation at the top the moment it is created, and moves and restates one with new activity', async () => {
    const a = item({ title: 'Older', updatedAt: at(1) });
    const b = item({ title: 'Newer', updatedAt: at(2) });
    const { el, fake, titles, states } = await list([b, a]);
    fake.emit(item({ title: 'Brand new', attention: 'live', updatedAt: at(3) }));
    await el.updateComplete;
    expect(titles()).to.deep.equal(['Brand new', 'Newer', 'Older']);
    fake.emit({ ...a, attention: 'unviewed', updatedAt: at(4) });
    await el.updateComplete;
    await waitUntil(() => states()[0] === 'unviewed');
    expect(titles()).to.deep.equal(['Older', 'Brand new', 'Newer']);
  });

  it('asks the server again for each filter and search, with the export link following', async () => {
    const { el, root, fake } = await list([]);
    const filter = [...root.querySelectorAll<HTMLButtonElement>('[role=group] button')].find((b) => b.textContent === 'Input needed')!;
    filter.click();
    await el.updateComplete;
    expect(filter.getAttribute('aria-pressed')).to.equal('true');
    root.querySelector<HTMLInputElement>('input[type=search]')!.value = 'invoice';
    root.querySelector<HTMLFormElement>('form[role=search]')!.requestSubmit();
    await el.updateComplete;
    expect(fake.callsOf('conversations').map(([input]) => input)).to.deep.equal([{ filter: 'all' }, { filter: 'input_needed' }, { filter: 'input_needed', search: 'invoice' }]);
    expect(root.querySelector('a[download]')!.getAttribute('href')).to.equal('/admin/export/conversations.csv?filter=input_needed&search=invoice');
  });

  it('loads the next page with the cursor on "Load more"', async () => {
    const first = [item({ title: 'One', updatedAt: at(9) })];
    const { el, root, fake, titles } = await list(first, 'cursor-2', [item({ title: 'Two', updatedAt: at(1) })]);
    root.querySelector<HTMLButtonElement>('button.more')!.click();
    await waitUntil(() => titles().length === 2);
    expect(titles()).to.deep.equal(['One', 'Two']);
    expect(fake.callsOf('conversations')[1]![0]).to.deep.equal({ filter: 'all', cursor: 'cursor-2' });
    await el.updateComplete;
    expect(root.querySelector('button.more')).to.equal(null);
  });

  it('opens a transcript from a row', async () => {
    const c = item({ title: 'Open me' });
    const { root } = await list([c]);
    root.querySelector('heed-conversation-row')!.shadowRoot!.querySelector('button')!.click();
    expect(location.hash).to.equal(`#/conversations/${c.id}`);
    location.hash = '';
  });

  it('is accessible', async () => {
    const { el } = await list([item({ attention: 'input_needed' }), item({ attention: 'default' })]);
    await expect(el).shadowDom.to.be.accessible();
  });
});
