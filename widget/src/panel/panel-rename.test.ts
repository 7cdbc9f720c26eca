/// <reference types="mocha" />
import { expect, fixture, html } from '@open-wc/testing';
import './panel.ts';
import type { HeedPanel } from './panel.component.ts';
import { HeedStore } from '../state/store.ts';
import { conversation, FakeApi, settle } from '../test-support/fake-api.ts';

async function setup() {
  const c = conversation({ title: 'Hi there' });
  const api = new FakeApi({ conversations: [c, conversation({ title: 'Other' })] });
  const store = new HeedStore({ api, siteKey: 'site' });
  await store.start();
  const el = await fixture<HeedPanel>(html`<heed-panel .store=${store} layout="wide" open closable></heed-panel>`);
  await settle();
  const heading = () => el.shadowRoot!.querySelector('heed-heading')!;
  const titleText = async () => {
    await el.updateComplete;
    await heading().updateComplete;
    return heading().shadowRoot!.querySelector('h2')?.textContent;
  };
  const sidebarTitles = async () => {
    const sidebar = el.shadowRoot!.querySelector('heed-sidebar')!;
    await sidebar.updateComplete;
    const rows = [...sidebar.shadowRoot!.querySelectorAll('heed-conversation-row')];
    await Promise.all(rows.map((r) => r.updateComplete));
    return rows.map((r) => r.shadowRoot!.querySelector('.title')!.textContent);
  };
  return { el, api, store, c, heading, titleText, sidebarTitles };
}

describe('heed-panel rename', () => {
  it('offers renaming only in an open thread', async () => {
    const { el, c, heading } = await setup();
    await heading().updateComplete;
    expect(heading().shadowRoot!.querySelector('button.rename'), 'inbox').to.be.null;
    await el.openConversation(c.id);
    await el.updateComplete;
    await heading().updateComplete;
    expect(heading().shadowRoot!.querySelector('button.rename')).to.exist;
  });

  it('renames from the heading: the API gets the trimmed title, heading and sidebar show it', async () => {
    const { el, api, c, heading, titleText, sidebarTitles } = await setup();
    await el.openConversation(c.id);
    await el.updateComplete;
    await heading().edit();
    const field = heading().shadowRoot!.querySelector('input')!;
    field.value = '  Shipping to Norway ';
    field.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, composed: true }));
    expect(await titleText()).to.equal('Shipping to Norway');
    await settle();
    expect(api.callsOf('rename')).to.deep.equal([[c.id, 'Shipping to Norway']]);
    expect(await sidebarTitles()).to.include('Shipping to Norway');
  });

  it('puts the old title back when the server refuses the rename', async () => {
    const { el, api, c, heading, titleText } = await setup();
    api.rename = async () => {
      throw new Error('BAD_REQUEST');
    };
    await el.openConversation(c.id);
    heading().dispatchEvent(new CustomEvent('heed-rename', { detail: { title: 'Nope' }, bubbles: true, composed: true }));
    await settle();
    expect(await titleText()).to.equal('Hi there');
  });

  it('Escape in the title field cancels the rename and keeps the chat open', async () => {
    const { el, c, heading, titleText } = await setup();
    let closed = 0;
    el.addEventListener('heed-close', () => closed++);
    await el.openConversation(c.id);
    await el.updateComplete;
    await heading().edit();
    heading()
      .shadowRoot!.querySelector('input')!
      .dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, composed: true }));
    expect(closed).to.equal(0);
    expect(await titleText()).to.equal('Hi there');
  });

  it('shows a title that changes in the background (conversation.updated) in heading and sidebar, without a reload', async () => {
    const { el, api, c, titleText, sidebarTitles } = await setup();
    await el.openConversation(c.id);
    api.emit({
      type: 'conversation.updated',
      conversationId: c.id,
      conversation: { ...c, title: 'Shipping to Norway', titleSource: 'generated' },
    });
    expect(await titleText()).to.equal('Shipping to Norway');
    expect(await sidebarTitles()).to.deep.equal(['Shipping to Norway', 'Other']);
    expect(api.callsOf('getConversation')).to.have.length(1);
  });
});
