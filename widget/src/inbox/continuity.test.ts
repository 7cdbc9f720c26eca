/// <reference types="mocha" />
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../panel/panel.ts';
import type { HeedPanel } from '../panel/panel.component.ts';
import { HeedStore } from '../state/store.ts';
import { AuthError, RefusedError } from '../state/heed-api.ts';
import { conversation, FakeApi, message, settle } from '../test-support/fake-api.ts';

const T1 = '2026-01-01T10:00:00.000Z';
const T2 = '2026-01-01T11:00:00.000Z';

/** A panel as the widget opens it: landing on, `open` as the launcher sets it. */
async function openPanel(api: FakeApi, opts: { resumeHome?: boolean } = {}) {
  const store = new HeedStore({ api, siteKey: 'site' });
  await store.start();
  const el = await fixture<HeedPanel>(
    html`<div style="width: 760px; height: 560px"><heed-panel .store=${store} .landOnOpen=${true} .resumeHome=${opts.resumeHome ?? false} open closable></heed-panel></div>`,
  ).then((d) => d.querySelector('heed-panel')!);
  await settle();
  await el.updateComplete;
  return { el, store };
}

const inbox = (el: HeedPanel) => el.shadowRoot!.querySelector('heed-inbox');
const textarea = (el: HeedPanel) => el.shadowRoot!.querySelector('heed-composer')!.shadowRoot!.querySelector('textarea')!;
const type = (el: HeedPanel, text: string) => {
  const box = textarea(el);
  box.value = text;
  box.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, composed: true }));
};

describe('a returning visitor', () => {
  it('lands in their latest conversation with its history, not on an empty home view', async () => {
    const order = conversation({ title: 'Order #1234' });
    const api = new FakeApi({ conversations: [order, conversation({ title: 'Sizes' })] });
    api.messages.set(order.id, [message({ conversationId: order.id, role: 'user', content: 'My order #1234 has not arrived' })]);
    const { el } = await openPanel(api);
    await waitUntil(() => el.activeId === order.id, 'the latest conversation opened');
    await waitUntil(() =>
      el.shadowRoot!.querySelector('heed-message-list')?.shadowRoot?.textContent?.includes('My order #1234 has not arrived'),
    );
    expect(inbox(el)).to.be.null;
  });

  it('lands where their attention is: an unviewed reply before a more recent quiet conversation', async () => {
    const quiet = conversation({ title: 'Quiet' });
    const unviewed = conversation({ title: 'Answered', lastAssistantAt: T2, lastReadAt: T1 });
    const { el } = await openPanel(new FakeApi({ conversations: [quiet, unviewed] }));
    await waitUntil(() => el.activeId === unviewed.id);
  });

  it('stays home when they went home on purpose, where Continue opens the latest and a send goes into it', async () => {
    const order = conversation({ title: 'Order #1234' });
    const api = new FakeApi({ conversations: [order] });
    const { el } = await openPanel(api, { resumeHome: true });
    await el.updateComplete;
    expect(el.activeId).to.be.null;
    const home = inbox(el)!;
    await home.updateComplete;
    expect(home.shadowRoot!.querySelector('.latest-title')!.textContent).to.equal('Order #1234');
    await expect(home).shadowDom.to.be.accessible();

    type(el, 'Any update on my order?');
    await waitUntil(() => api.callsOf('send').length === 1, 'the send went out');
    expect((api.callsOf('send')[0]![0] as { conversationId: string }).conversationId).to.equal(order.id);
    expect(api.callsOf('createConversation')).to.deep.equal([]);
    await waitUntil(() => el.activeId === order.id, 'the conversation it went into opened');

    await el.openConversation(null);
    await el.updateComplete;
    inbox(el)!.shadowRoot!.querySelector<HTMLButtonElement>('.continue')!.click();
    await waitUntil(() => el.activeId === order.id, 'Continue opened the latest conversation');
  });

  it('starts a new conversation only when they choose New conversation', async () => {
    const order = conversation({ title: 'Order #1234' });
    const api = new FakeApi({ conversations: [order] });
    const { el } = await openPanel(api, { resumeHome: true });
    const home = inbox(el)!;
    await home.updateComplete;
    home.shadowRoot!.querySelector<HTMLButtonElement>('.latest .start')!.click();
    await waitUntil(() => api.callsOf('createConversation').length === 1);
    await waitUntil(() => el.activeId !== null && el.activeId !== order.id, 'the new conversation opened');
  });
});

describe('a page whose origin the site does not allow', () => {
  class RefusingApi extends FakeApi {
    override async startSession(): Promise<never> {
      throw new RefusedError('origin_not_allowed', 'This page’s origin is not in the site’s allowed origins.');
    }
  }

  it('says chat is unavailable here, and a send keeps the words in the box instead of throwing', async () => {
    const errors: string[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => errors.push(String(args[0]));
    try {
      const api = new RefusingApi();
      const { el, store } = await openPanel(api);
      expect(store.state.connection).to.equal('unavailable');
      await el.updateComplete;
      const home = inbox(el)!;
      await home.updateComplete;
      expect(home.shadowRoot!.textContent).to.contain('Chat is unavailable on this page right now.');
      const status = el.shadowRoot!.querySelector('heed-heading')!.shadowRoot!.querySelector('[part="status"]')!;
      expect(status.textContent).to.equal('Unavailable');
      type(el, 'My order #1234 has not arrived');
      await settle();
      expect(textarea(el).value).to.equal('My order #1234 has not arrived');
      expect(api.callsOf('createConversation')).to.deep.equal([]);
      expect(api.callsOf('send')).to.deep.equal([]);
      expect(errors.filter((e) => e.includes('origin_not_allowed'))).to.have.length(1);
      await expect(el).shadowDom.to.be.accessible();
    } finally {
      console.error = original;
    }
  });

  it('a message sent before the session is up waits for it, then goes into the latest conversation', async () => {
    const order = conversation({ title: 'Order #1234' });
    // a slow network: the session answers only when the test says, and the server refuses a create without a token
    class SlowSession extends FakeApi {
      release!: () => void;
      override async startSession(input: Parameters<FakeApi['startSession']>[0]) {
        await new Promise<void>((resolve) => (this.release = resolve));
        return super.startSession(input);
      }
      override async createConversation() {
        if (!this.token) throw new AuthError('A valid visitor token is required');
        return super.createConversation();
      }
    }
    const api = new SlowSession({ conversations: [order] });
    const store = new HeedStore({ api, siteKey: 'site' });
    void store.start();
    const el = await fixture<HeedPanel>(
      html`<div style="width: 760px; height: 560px"><heed-panel .store=${store} open closable></heed-panel></div>`,
    ).then((d) => d.querySelector('heed-panel')!);
    await el.updateComplete;
    type(el, 'Any update on my order?');
    await settle();
    expect(api.callsOf('send')).to.deep.equal([]);
    api.release();
    await waitUntil(() => api.callsOf('send').length === 1, 'the message sent once the session is up');
    expect(api.callsOf('createConversation')).to.deep.equal([]);
    expect(api.callsOf('send')[0]![0]).to.include({ conversationId: order.id, content: 'Any update on my order?' });
  });

  it('puts a message typed right after "New conversation" into the new one, even before the server made it', async () => {
    const order = conversation({ title: 'Order #1234' });
    const api = new FakeApi({ conversations: [order] });
    const { el } = await openPanel(api);
    await waitUntil(() => el.activeId === order.id, 'the latest conversation opened');
    let made!: () => void;
    const create = api.createConversation.bind(api);
    api.createConversation = async () => {
      await new Promise<void>((r) => (made = r));
      return create();
    };
    el.shadowRoot!.querySelector('heed-sidebar')!.dispatchEvent(
      new CustomEvent('heed-new-conversation', { bubbles: true, composed: true }),
    );
    type(el, 'A new question');
    await settle();
    expect(api.callsOf('send')).to.have.length(0);
    made();
    await waitUntil(() => api.callsOf('send').length === 1, 'the send');
    const [sent] = api.callsOf('send')[0] as [{ conversationId: string }];
    expect(sent.conversationId).to.not.equal(order.id);
    expect(sent.conversationId).to.equal(el.activeId);
  });
});
