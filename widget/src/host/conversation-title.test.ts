/// <reference types="mocha" />
import { expect, fixture, html } from '@open-wc/testing';
import '../widget/widget.ts';
import '../panel/panel.ts';
import type { HeedWidget } from '../widget/widget.component.ts';
import type { HeedPanel } from '../panel/panel.component.ts';
import { HeedStore } from '../state/store.ts';
import { conversation, FakeApi, settle } from '../test-support/fake-api.ts';
import { publishCounts } from './counts-signal.ts';
import { documentTitleFor } from './conversation-title.ts';

const PAGE = 'Help centre';
const oslo = conversation({ title: 'Delivery to Oslo' });

async function mount(template: ReturnType<typeof html>) {
  const store = new HeedStore({ api: new FakeApi({ conversations: [oslo, conversation({ title: 'Returns' })] }), siteKey: 'site' });
  const widget = await fixture<HeedWidget>(template);
  widget.store = store;
  await store.start();
  await widget.show();
  await settle();
  const panel = widget.shadowRoot!.querySelector<HeedPanel>('heed-panel')!;
  const open = async (id: string | null) => {
    await panel.openConversation(id);
    await panel.updateComplete;
  };
  return { widget, panel, open, store };
}

describe('document title from the open conversation', () => {
  let saved: string;
  beforeEach(() => {
    saved = document.title;
    document.title = PAGE;
  });
  afterEach(() => {
    document.title = saved;
  });

  it('joins the conversation title and the page title', () => {
    expect(documentTitleFor('Delivery to Oslo', PAGE)).to.equal('Delivery to Oslo · Help centre');
    expect(documentTitleFor('Delivery to Oslo', '')).to.equal('Delivery to Oslo');
  });

  it('in inline mode shows the open conversation’s title, follows a rename and restores the page title when none is open', async () => {
    const { open, store } = await mount(html`<heed-widget mode="inline"></heed-widget>`);
    // opening landed in the latest conversation
    expect(document.title).to.equal('Delivery to Oslo · Help centre');
    await open(null);
    expect(document.title).to.equal(PAGE);
    await open(oslo.id);
    expect(document.title).to.equal('Delivery to Oslo · Help centre');
    store.put({ ...oslo, title: 'Delivery to Bergen', updatedAt: '2026-01-01T11:00:00.000Z' });
    await settle();
    expect(document.title).to.equal('Delivery to Bergen · Help centre');
    await open(null);
    expect(document.title).to.equal(PAGE);
  });

  it('restores the page title when the inline widget is removed', async () => {
    const { widget, open } = await mount(html`<heed-widget mode="inline"></heed-widget>`);
    await open(oslo.id);
    expect(document.title).to.equal('Delivery to Oslo · Help centre');
    widget.remove();
    expect(document.title).to.equal(PAGE);
  });

  it('leaves a launcher widget’s host page title alone by default', async () => {
    const { open } = await mount(html`<heed-widget></heed-widget>`);
    await open(oslo.id);
    expect(document.title).to.equal(PAGE);
  });

  it('in launcher mode with the conversation-title opt-in, shows it while the panel is open and restores it on close', async () => {
    const { widget, panel, open } = await mount(html`<heed-widget conversation-title></heed-widget>`);
    await open(oslo.id);
    expect(document.title).to.equal('Delivery to Oslo · Help centre');
    widget.hide();
    await widget.updateComplete;
    await panel.updateComplete;
    expect(document.title).to.equal(PAGE);
  });

  it('takes the opt-in from the embedding script tag’s data-conversation-title too', async () => {
    const tag = Object.assign(document.createElement('script'), { type: 'text/plain' });
    tag.dataset.site = 'site';
    tag.dataset.conversationTitle = '';
    document.body.append(tag);
    try {
      const { open } = await mount(html`<heed-widget></heed-widget>`);
      await open(oslo.id);
      expect(document.title).to.equal('Delivery to Oslo · Help centre');
    } finally {
      tag.remove();
    }
  });

  it('keeps the opt-in unread-count prefix, whichever changes first', async () => {
    document.title = `(2) ${PAGE}`;
    const { open } = await mount(html`<heed-widget mode="inline"></heed-widget>`);
    await open(oslo.id);
    expect(document.title).to.equal('(2) Delivery to Oslo · Help centre');
    publishCounts({ unread: 3, live: 0, inputNeeded: 0 }, { documentTitle: true });
    expect(document.title).to.equal('(3) Delivery to Oslo · Help centre');
    await open(null);
    expect(document.title).to.equal(`(3) ${PAGE}`);
    publishCounts({ unread: 0, live: 0, inputNeeded: 0 }, { documentTitle: true });
    expect(document.title).to.equal(PAGE);
  });

  it('a title the page sets itself while a conversation shows is the one restored', async () => {
    const { open, panel } = await mount(html`<heed-widget mode="inline"></heed-widget>`);
    await open(oslo.id);
    document.title = 'Orders · Help centre';
    panel.requestUpdate();
    await panel.updateComplete;
    expect(document.title).to.equal('Delivery to Oslo · Orders · Help centre');
    await open(null);
    expect(document.title).to.equal('Orders · Help centre');
  });
});
