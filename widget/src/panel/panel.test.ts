/// <reference types="mocha" />
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import './panel.ts';
import type { HeedPanel } from './panel.component.ts';
import type { HeedHeading } from '../heading/heading.component.ts';
import { HeedStore } from '../state/store.ts';
import { conversation, deepQueryAll, FakeApi, message, setVisibility, settle } from '../test-support/fake-api.ts';

const LONG_TITLE = 'A very long conversation title about shipping, returns, invoices and everything else the visitor asked about';

async function setup(opts: { layout: 'wide' | 'narrow'; open?: boolean; width?: number }) {
  const c = conversation({ title: LONG_TITLE, lastAssistantAt: '2026-01-01T11:00:00.000Z' });
  const api = new FakeApi({ conversations: [c, conversation({ live: true, title: 'Live one' })] });
  api.messages.set(c.id, [
    message({ conversationId: c.id, role: 'user', content: 'Hi', createdAt: '2026-01-01T10:59:00.000Z' }),
    message({ conversationId: c.id, content: 'Hello!', provenance: 'check_in', createdAt: '2026-01-01T11:00:00.000Z' }),
  ]);
  const store = new HeedStore({ api, siteKey: 'site' });
  await store.start();
  const el = await fixture<HeedPanel>(
    html`<div style="width: ${opts.width ?? (opts.layout === 'wide' ? 760 : 360)}px; height: 560px">
      <heed-panel .store=${store} layout=${opts.layout} ?open=${opts.open ?? true} closable></heed-panel>
    </div>`,
  ).then((d) => d.querySelector('heed-panel')!);
  await settle();
  return { el, api, store, c };
}

const heading = (el: HeedPanel) => el.shadowRoot!.querySelector<HeedHeading>('heed-heading')!;

describe('heed-panel', () => {
  afterEach(() => setVisibility(null));

  for (const layout of ['wide', 'narrow'] as const) {
    it(`uses the one heading in the ${layout} layout: truncated title, dot on the title line, fixed status, provenance`, async () => {
      const { el, c, store } = await setup({ layout });
      await el.openConversation(c.id);
      await el.updateComplete;
      const h = heading(el);
      await h.updateComplete;
      expect(deepQueryAll(el.shadowRoot!, 'heed-heading')).to.have.length(1);
      const root = h.shadowRoot!;
      const title = root.querySelector('h2')!;
      const dot = root.querySelector('.dot')!;
      expect(title.textContent).to.equal(LONG_TITLE);
      expect(title.scrollWidth, 'title is truncated').to.be.greaterThan(title.clientWidth);
      const t = title.getBoundingClientRect();
      const d = dot.getBoundingClientRect();
      expect(d.top, 'dot stays on the title line').to.be.within(t.top, t.bottom);
      expect(d.left).to.be.at.least(t.right - 1);
      expect(root.querySelector('.provenance')!.textContent).to.equal('Check-in');
      // the status text changes in place; the title does not move
      store.reportOffline();
      await el.updateComplete;
      await h.updateComplete;
      expect(root.querySelector('[aria-live]')!.textContent).to.equal('Offline');
      expect(title.getBoundingClientRect().top).to.equal(t.top);
      expect(title.getBoundingClientRect().left).to.equal(t.left);
      // exactly one status region in the whole panel; the thread is the one log
      expect(deepQueryAll(el.shadowRoot!, '[aria-live]:not([aria-live="off"]), [role="status"], [role="alert"]')).to.have.length(1);
      expect(deepQueryAll(el.shadowRoot!, '[role="log"]').length).to.be.at.most(1);
    });
  }

  it('switches to the drawer layout by its own width, with the same components', async () => {
    const { el } = await setup({ layout: 'wide', width: 500 });
    el.layout = undefined;
    await waitUntil(() => el.currentLayout === 'narrow');
    await el.updateComplete;
    const sidebar = el.shadowRoot!.querySelector('heed-sidebar')!;
    expect(sidebar.hidden).to.be.true;
    el.shadowRoot!.querySelector<HTMLButtonElement>('button[slot="start"]')!.click();
    await el.updateComplete;
    expect(sidebar.hidden).to.be.false;
    expect(sidebar.classList.contains('drawer')).to.be.true;
  });

  it('marks the open thread read with the displayed reply time, only while open and visible', async () => {
    const { el, api, c } = await setup({ layout: 'wide', open: false });
    setVisibility('visible');
    await el.openConversation(c.id);
    await settle();
    expect(api.callsOf('markRead'), 'panel closed').to.deep.equal([]);

    setVisibility('hidden');
    el.open = true;
    await el.updateComplete;
    await settle();
    expect(api.callsOf('markRead'), 'page hidden').to.deep.equal([]);

    setVisibility('visible');
    await settle();
    expect(api.callsOf('markRead')).to.deep.equal([[c.id, '2026-01-01T11:00:00.000Z']]);
  });

  it('does not mark read a conversation whose thread is not open (inbox view)', async () => {
    const { el, api } = await setup({ layout: 'wide' });
    setVisibility('visible');
    await el.updateComplete;
    await settle();
    expect(api.callsOf('markRead')).to.deep.equal([]);
    expect(el.shadowRoot!.querySelector('heed-inbox')).to.exist;
  });

  it('marks a reply that arrives while the thread is open and visible, so it never shows as unviewed', async () => {
    const { el, api, store, c } = await setup({ layout: 'wide' });
    setVisibility('visible');
    await el.openConversation(c.id);
    await settle();
    const reply = message({ conversationId: c.id, runId: 'r2', content: 'More', createdAt: '2026-01-01T12:00:00.000Z' });
    api.emit({ type: 'reply.completed', conversationId: c.id, runId: 'r2', message: reply });
    api.emit({
      type: 'conversation.updated',
      conversationId: c.id,
      conversation: { ...c, lastAssistantAt: reply.createdAt, lastReadAt: '2026-01-01T11:00:00.000Z', updatedAt: reply.createdAt },
    });
    await el.updateComplete;
    expect(store.counts.unread).to.equal(0);
    expect(api.callsOf('markRead').at(-1)).to.deep.equal([c.id, reply.createdAt]);
  });

  it('asks to close on Escape', async () => {
    const { el } = await setup({ layout: 'wide' });
    let closed = 0;
    el.addEventListener('heed-close', () => closed++);
    el.shadowRoot!.querySelector('heed-composer')!
      .shadowRoot!.querySelector('textarea')!
      .dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, composed: true }));
    expect(closed).to.equal(1);
  });

  it('shows failed replies in the inbox with their error excerpt and a Retry', async () => {
    const failed = conversation({
      title: 'Broken',
      failed: true,
      excerpt: 'Reply failed: the assistant is unavailable.',
      lastAssistantAt: '2026-01-01T11:00:00Z',
    });
    const api = new FakeApi({ conversations: [failed] });
    const store = new HeedStore({ api, siteKey: 'site' });
    await store.start();
    const el = await fixture<HeedPanel>(html`<heed-panel .store=${store} layout="wide" open></heed-panel>`);
    await settle();
    const inbox = el.shadowRoot!.querySelector('heed-inbox')!;
    await inbox.updateComplete;
    expect(inbox.shadowRoot!.textContent).to.contain('Reply failed: the assistant is unavailable.');
    inbox.shadowRoot!.querySelector<HTMLButtonElement>('.retry')!.click();
    await settle();
    expect(api.callsOf('retry')).to.deep.equal([[failed.id]]);
  });

  for (const layout of ['wide', 'narrow'] as const) {
    it(`passes axe in the ${layout} layout, in the inbox and in a thread`, async () => {
      const { el, c } = await setup({ layout });
      await expect(el).shadowDom.to.be.accessible();
      await el.openConversation(c.id);
      await el.updateComplete;
      await expect(el).shadowDom.to.be.accessible();
    });
  }

  describe('floating on a wide screen', () => {
    async function floating(conversations: number) {
      const api = new FakeApi({ conversations: Array.from({ length: conversations }, (_, i) => conversation({ title: `Chat ${i}` })) });
      const store = new HeedStore({ api, siteKey: 'site' });
      await store.start();
      const el = await fixture<HeedPanel>(html`<heed-panel .store=${store} placement="floating" open closable></heed-panel>`);
      await settle();
      return el;
    }

    it('is compact for a visitor with few conversations, and widens for the list when asked', async () => {
      const el = await floating(2);
      expect(el.compact).to.be.true;
      expect(el.getBoundingClientRect().width).to.be.at.most(402);
      await waitUntil(() => deepQueryAll(el.shadowRoot!, 'button[aria-expanded]').length === 1, 'the ☰ button');
      (deepQueryAll(el.shadowRoot!, 'button[aria-expanded]')[0] as HTMLButtonElement).click();
      await el.updateComplete;
      expect(el.compact).to.be.false;
      expect(el.getBoundingClientRect().width).to.be.above(600);
    });

    it('shows the list beside the thread for a visitor with several conversations', async () => {
      const el = await floating(3);
      expect(el.compact).to.be.false;
    });
  });
});
