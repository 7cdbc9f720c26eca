/// <reference types="mocha" />
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import './panel.ts';
import type { HeedPanel } from './panel.component.ts';
import { deepActiveElement } from './focus-trap.ts';
import { HeedStore } from '../state/store.ts';
import { conversation, FakeApi, settle } from '../test-support/fake-api.ts';

async function setup() {
  const c = conversation({ title: 'Hi there' });
  const unread = conversation({ title: 'Unread', lastAssistantAt: '2026-01-01T11:00:00.000Z' });
  const api = new FakeApi({ conversations: [c, conversation({ title: 'Other' }), unread] });
  const store = new HeedStore({ api, siteKey: 'site' });
  await store.start();
  const el = await fixture<HeedPanel>(html`<heed-panel .store=${store} layout="wide" open closable></heed-panel>`);
  await settle();
  const opened: (string | null)[] = [];
  el.addEventListener('heed-thread-opened', (e) =>
    opened.push((e as CustomEvent<{ conversationId: string | null }>).detail.conversationId),
  );
  await el.openConversation(c.id);
  await el.updateComplete;
  const heading = () => el.shadowRoot!.querySelector('heed-heading')!;
  const hroot = () => heading().shadowRoot!;
  const dialog = () => hroot().querySelector('dialog')!;
  const status = () =>
    hroot()
      .querySelector('[role="status"]')!
      .textContent!.replace(/\u00a0/g, '');
  /** Opens the heading's menu, chooses "Delete conversation", and answers the confirmation with `answer`. */
  const choose = async (answer?: 'cancel' | 'delete') => {
    await heading().updateComplete;
    hroot().querySelector<HTMLButtonElement>('.menu-button')!.click();
    await waitUntil(() => hroot().querySelector('[role="menuitem"]'), 'the menu opens');
    hroot().querySelector<HTMLButtonElement>('[role="menuitem"]')!.click();
    await waitUntil(() => dialog().open, 'the confirmation opens');
    if (answer) dialog().querySelector<HTMLButtonElement>(`button[value="${answer}"]`)!.click();
  };
  const sidebarTitles = async () => {
    const sidebar = el.shadowRoot!.querySelector('heed-sidebar')!;
    await sidebar.updateComplete;
    const rows = [...sidebar.shadowRoot!.querySelectorAll('heed-conversation-row')];
    await Promise.all(rows.map((r) => r.updateComplete));
    return rows.map((r) => r.shadowRoot!.querySelector('.title')!.textContent);
  };
  return { el, api, store, c, unread, opened, heading, dialog, status, choose, sidebarTitles };
}

describe('heed-panel delete conversation', () => {
  it('deletes the open conversation once confirmed: asked of the API, gone from the list, home, said, focus on the composer', async () => {
    const { el, api, store, c, opened, status, choose, sidebarTitles } = await setup();
    await choose('delete');
    await waitUntil(() => el.activeId === null, 'the panel goes home');
    expect(api.callsOf('deleteConversation')).to.deep.equal([[c.id]]);
    expect(store.conversation(c.id) === undefined).to.equal(true);
    expect(store.state.threads.has(c.id)).to.equal(false);
    expect((await sidebarTitles()).sort()).to.deep.equal(['Other', 'Unread']);
    expect(opened.at(-1)).to.equal(null);
    await waitUntil(() => status().endsWith('Conversation deleted'), 'said through the status region');
    await waitUntil(() => deepActiveElement()?.localName === 'textarea', 'focus on the composer');
    // the server's own event for it, arriving afterwards, changes nothing and says nothing again
    const said = status();
    api.emit({ type: 'conversation.deleted', conversationId: c.id });
    await settle();
    expect(status()).to.equal(said);
  });

  it('Cancel (or Escape, which leaves the chat open) keeps the conversation', async () => {
    const { el, api, store, c, dialog, choose } = await setup();
    let closed = 0;
    el.addEventListener('heed-close', () => closed++);
    await choose('cancel');
    await waitUntil(() => !dialog().open, 'the confirmation closes');
    await choose();
    await sendKeys({ press: 'Escape' });
    await waitUntil(() => !dialog().open, 'Escape closes the confirmation');
    await settle();
    expect(closed).to.equal(0);
    expect(api.callsOf('deleteConversation')).to.deep.equal([]);
    expect(store.conversation(c.id)?.id).to.equal(c.id);
    expect(el.activeId).to.equal(c.id);
  });

  it('keeps everything when the server refuses, and says so', async () => {
    const { el, api, store, c, status, choose } = await setup();
    api.deleteAnswer = async () => {
      throw new Error('Internal server error');
    };
    await choose('delete');
    await waitUntil(() => status().endsWith('The conversation could not be deleted. Try again.'), 'the failure is said');
    expect(store.conversation(c.id)?.id).to.equal(c.id);
    expect(el.activeId).to.equal(c.id);
  });

  it('takes NOT_FOUND (deleted elsewhere first) as deleted', async () => {
    const { el, api, store, c, status, choose } = await setup();
    api.deleteAnswer = async () => {
      throw Object.assign(new Error('Conversation not found'), { data: { code: 'NOT_FOUND', httpStatus: 404 } });
    };
    await choose('delete');
    await waitUntil(() => el.activeId === null, 'the panel goes home');
    expect(store.conversation(c.id) === undefined).to.equal(true);
    await waitUntil(() => status().endsWith('Conversation deleted'), 'said');
  });

  it('drops a conversation another tab (or the console) deleted: the open one sends the panel home and is said', async () => {
    const { el, api, store, c, status, sidebarTitles } = await setup();
    api.emit({ type: 'conversation.deleted', conversationId: c.id });
    await waitUntil(() => el.activeId === null, 'the panel goes home');
    expect(store.conversation(c.id) === undefined).to.equal(true);
    expect((await sidebarTitles()).sort()).to.deep.equal(['Other', 'Unread']);
    await waitUntil(() => status().endsWith('Conversation deleted'), 'said through the status region');
  });

  it('drops another conversation deleted elsewhere from the list and the counts, the open thread staying', async () => {
    const { el, api, store, c, unread, status, sidebarTitles } = await setup();
    expect(store.counts.unread).to.equal(1);
    const said = status();
    api.emit({ type: 'conversation.deleted', conversationId: unread.id });
    await el.updateComplete;
    expect(store.counts.unread).to.equal(0);
    expect((await sidebarTitles()).sort()).to.deep.equal(['Hi there', 'Other']);
    expect(el.activeId).to.equal(c.id);
    expect(status()).to.equal(said);
    // a late view of it (an older event, a slow answer) does not bring it back
    api.emit({ type: 'conversation.updated', conversationId: unread.id, conversation: unread });
    expect(store.conversation(unread.id) === undefined).to.equal(true);
  });

  it('is accessible with the confirmation open', async () => {
    const { el, choose } = await setup();
    await choose();
    await expect(el).shadowDom.to.be.accessible();
  });
});
