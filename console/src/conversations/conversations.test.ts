/// <reference types="mocha" />
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import './conversations.ts';
import type { HeedConsoleConversations } from './conversations.component.ts';
import { fakeConsoleApi, item, owner } from '../test-support/fake-console-api.ts';
import type { ConversationItem } from '../state/contract.ts';

const at = (s: number) => new Date(Date.UTC(2026, 0, 2, 12, 0, s)).toISOString();

async function list(
  first: ConversationItem[],
  nextCursor: string | null = null,
  more: ConversationItem[] = [],
  waiting: ConversationItem[] = [],
) {
  const fake = fakeConsoleApi({
    conversations: async (input) =>
      input.filter === 'waiting' && input.limit
        ? { items: waiting, nextCursor: null }
        : input.cursor
          ? { items: more, nextCursor: null }
          : { items: first, nextCursor },
  });
  const el = await fixture<HeedConsoleConversations>(
    html`<heed-console-conversations .api=${fake.api} .me=${owner}></heed-console-conversations>`,
  );
  const root = el.shadowRoot!;
  const titles = () =>
    [...root.querySelectorAll('ul[aria-label=Conversations] li heed-conversation-row')].map(
      (r) => r.shadowRoot!.querySelector('.title')!.textContent,
    );
  const states = () =>
    [...root.querySelectorAll('ul[aria-label=Conversations] li heed-conversation-row')].map(
      (r) => r.shadowRoot!.querySelector('button')!.dataset.state,
    );
  await waitUntil(
    () => root.querySelectorAll('ul[aria-label=Conversations] li').length === first.length && fake.openStreams === 1,
    'first page shown',
  );
  await waitUntil(() => root.querySelectorAll('.queue li').length === waiting.length, 'waiting queue shown');
  return { el, root, fake, titles, states };
}

describe('heed-console-conversations', () => {
  it('lists conversations in a list named Conversations, each row with its title and its attention state', async () => {
    const { root, titles, states } = await list([
      item({ title: 'Boots', attention: 'live' }),
      item({ title: 'Returns', attention: 'unviewed', failed: true }),
    ]);
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
    const pages = fake.callsOf('conversations').map(([input]) => input as { filter: string });
    expect(pages.filter((p) => p.filter !== 'waiting')).to.deep.equal([
      { filter: 'all' },
      { filter: 'input_needed' },
      { filter: 'input_needed', search: 'invoice' },
    ]);
    expect(root.querySelector('a[download]')!.getAttribute('href')).to.equal(
      '/admin/export/conversations.csv?filter=input_needed&search=invoice',
    );
  });

  it('loads the next page with the cursor on "Load more"', async () => {
    const first = [item({ title: 'One', updatedAt: at(9) })];
    const { el, root, fake, titles } = await list(first, 'cursor-2', [item({ title: 'Two', updatedAt: at(1) })]);
    root.querySelector<HTMLButtonElement>('button.more')!.click();
    await waitUntil(() => titles().length === 2);
    expect(titles()).to.deep.equal(['One', 'Two']);
    expect(fake.callsOf('conversations').at(-1)![0]).to.deep.equal({ filter: 'all', cursor: 'cursor-2' });
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

  it('queues conversations waiting for a person at the top, oldest wait first, and keeps the queue live', async () => {
    const older = item({ title: 'Refund please', waitingForPerson: true, attention: 'waiting', updatedAt: at(5) });
    const newer = item({ title: 'Talk to a human', waitingForPerson: true, attention: 'unviewed', updatedAt: at(8) });
    const { el, root, fake } = await list([newer, older], null, [], [older, newer]);
    expect(fake.callsOf('conversations').map(([input]) => input)).to.deep.include({ filter: 'waiting', limit: 50 });
    const queue = () => root.querySelector('.queue')!;
    expect(queue().querySelector('h2')!.textContent).to.equal('Waiting for a person (2)');
    expect(
      [...queue().querySelectorAll('li')].map(
        (li) => li.querySelector('heed-conversation-row')!.shadowRoot!.querySelector('.title')!.textContent,
      ),
    ).to.deep.equal(['Refund please', 'Talk to a human']);
    // an unread waiting row says both: its state is "New response", the marker says it waits
    expect(queue().querySelectorAll('li')[1]!.querySelector('.waiting')!.textContent).to.equal('Waiting for a person');
    const third = item({ title: 'Need a person', waitingForPerson: true, attention: 'waiting', updatedAt: at(9) });
    fake.emit(third);
    await el.updateComplete;
    expect(queue().querySelector('h2')!.textContent).to.equal('Waiting for a person (3)');
    fake.emit({ ...older, waitingForPerson: false, attention: 'default', heldBy: { id: 'op-2', name: 'Ana' }, updatedAt: at(10) });
    await el.updateComplete;
    expect(queue().querySelector('h2')!.textContent).to.equal('Waiting for a person (2)');
    const row = root.querySelector(`ul[aria-label=Conversations] li[data-id="${older.id}"]`)!;
    expect(row.querySelector('.held')!.textContent).to.equal('Held by Ana');
  });

  it('drops a deleted conversation from the list and from the queue', async () => {
    const gone = item({ title: 'Erased', waitingForPerson: true, attention: 'waiting', updatedAt: at(5) });
    const stays = item({ title: 'Stays', updatedAt: at(4) });
    const { el, root, fake, titles } = await list([gone, stays], null, [], [gone]);
    fake.emitRemoved(gone.id);
    await el.updateComplete;
    expect(titles()).to.deep.equal(['Stays']);
    expect(root.querySelector('.queue') === null).to.be.true;
  });

  it('applies a removal that came while a page loaded, after the page', async () => {
    let answer: (page: { items: ConversationItem[]; nextCursor: null }) => void = () => {};
    const gone = item({ title: 'Erased', updatedAt: at(5) });
    const stays = item({ title: 'Stays', updatedAt: at(4) });
    const fake = fakeConsoleApi({
      conversations: (input) =>
        input.filter === 'waiting' ? Promise.resolve({ items: [], nextCursor: null }) : new Promise((resolve) => (answer = resolve)),
    });
    const el = await fixture<HeedConsoleConversations>(
      html`<heed-console-conversations .api=${fake.api} .me=${owner}></heed-console-conversations>`,
    );
    await waitUntil(() => fake.openStreams === 1, 'listening');
    fake.emitRemoved(gone.id);
    answer({ items: [gone, stays], nextCursor: null });
    await waitUntil(
      () => el.shadowRoot!.querySelectorAll('ul[aria-label=Conversations] li').length === 1,
      'the page without the removed row',
    );
    expect(el.shadowRoot!.querySelector('ul[aria-label=Conversations] li')!.getAttribute('data-id')).to.equal(stays.id);
  });

  it('offers the Waiting for a person filter, which asks the server for the waiting list', async () => {
    const { el, root, fake } = await list([]);
    [...root.querySelectorAll<HTMLButtonElement>('[role=group] button')].find((b) => b.textContent === 'Waiting for a person')!.click();
    await el.updateComplete;
    expect(fake.callsOf('conversations').map(([input]) => input)).to.deep.include({ filter: 'waiting' });
  });

  it('shows a private conversation’s metadata without its words', async () => {
    const { root } = await list([item({ private: true, title: null, excerpt: null, messageCount: 4 })]);
    const li = root.querySelector('ul[aria-label=Conversations] li')!;
    expect(li.querySelector('heed-conversation-row')!.shadowRoot!.querySelector('.title')!.textContent).to.equal('Private conversation');
    expect(li.querySelector('.meta')!.textContent).to.contain('4 messages');
    expect(li.querySelector('.excerpt')).to.equal(null);
  });

  it('marks a row whose conversation carries files with a paperclip named by their count', async () => {
    const { root, el } = await list([item({ attachmentCount: 3 }), item({ attachmentCount: 1 }), item()]);
    const rows = [...root.querySelectorAll('ul[aria-label=Conversations] li')];
    const clip = rows[0]!.querySelector('.meta [role=img]')!;
    expect(clip.getAttribute('aria-label')).to.equal('3 attachments');
    expect(clip.textContent!.trim()).to.equal('3');
    expect(rows[1]!.querySelector('.meta [role=img]')!.getAttribute('aria-label')).to.equal('1 attachment');
    expect(rows[2]!.querySelector('.meta [role=img]')).to.equal(null);
    await expect(el).shadowDom.to.be.accessible();
  });

  it('is accessible', async () => {
    const waits = item({ attention: 'waiting', waitingForPerson: true });
    const { el } = await list(
      [item({ attention: 'input_needed' }), item({ attention: 'default', heldBy: { id: 'op-2', name: 'Ana' } }), waits],
      null,
      [],
      [waits],
    );
    await expect(el).shadowDom.to.be.accessible();
  });
});
