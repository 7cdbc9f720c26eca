/// <reference types="mocha" />
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../panel/panel.ts';
import type { HeedPanel } from '../panel/panel.component.ts';
import { HeedStore } from '../state/store.ts';
import type { ConversationView, MessageView } from '../state/types.ts';
import { conversation, FakeApi, message, settle } from '../test-support/fake-api.ts';

const T0 = '2026-01-01T10:00:00.000Z';

/** A panel with a thread open: the visitor's question, Ana's answer (unless `person: false`), then the assistant's. */
async function setup(over: Partial<ConversationView> = {}, opts: { person?: boolean } = {}) {
  const c = conversation({ title: 'Parcel', lastAssistantAt: T0, lastReadAt: T0, ...over });
  const api = new FakeApi({ conversations: [c], site: { name: 'Acme' } });
  const thread: MessageView[] = [message({ conversationId: c.id, role: 'user', content: 'Where is my parcel?', createdAt: T0 })];
  if (opts.person ?? true) {
    thread.push(
      message({ conversationId: c.id, role: 'operator', provenance: 'operator', provenanceLabel: 'Ana', content: 'Sent again today.' }),
    );
  }
  api.messages.set(c.id, thread);
  const store = new HeedStore({ api, siteKey: 'site' });
  await store.start();
  const el = await fixture<HeedPanel>(html`<heed-panel .store=${store} layout="wide" open></heed-panel>`);
  await settle();
  await el.openConversation(c.id);
  await settle();
  const prompt = async () => {
    await el.updateComplete;
    return el.shadowRoot!.querySelector('heed-message-list')!.querySelector('heed-rating-prompt');
  };
  const root = async () => {
    const p = (await prompt())!;
    await p.updateComplete;
    return p.shadowRoot!;
  };
  const update = (patch: Partial<ConversationView>) =>
    api.emit({ type: 'conversation.updated', conversationId: c.id, conversation: { ...store.conversation(c.id)!, ...patch } });
  return { el, api, store, c, prompt, root, update };
}

/** A button's accessible name: its text, without what is hidden from assistive technology (the emoji). */
const nameOf = (b: Element) =>
  [...b.childNodes]
    .filter((n) => n.nodeType === Node.TEXT_NODE || (n instanceof Element && n.getAttribute('aria-hidden') !== 'true'))
    .map((n) => n.textContent)
    .join('')
    .trim();

const thumbs = (root: ShadowRoot) => [...root.querySelectorAll<HTMLButtonElement>('.thumbs button')];

describe('heed-rating-prompt', () => {
  it('appears at the end of the thread, live, once a person’s conversation is resolved; not before, not without a person', async () => {
    const { el, prompt, root, update } = await setup();
    expect(await prompt()).to.be.null;
    update({ status: 'resolved', updatedAt: '2026-01-01T11:00:00.000Z' });
    await waitUntil(async () => (await prompt()) !== null, 'the prompt after the resolve event');
    const list = el.shadowRoot!.querySelector('heed-message-list')!;
    // slotted at the end of the thread, after the last message, inside the log
    const slot = list.shadowRoot!.querySelector('slot[name=end]')!;
    expect(slot.closest('[role=log]')).to.not.be.null;
    expect(slot.previousElementSibling?.textContent).to.contain('Sent again today.');
    const r = await root();
    expect(r.querySelector('[role=group]')!.getAttribute('aria-labelledby')).to.equal('ask');
    expect(r.getElementById('ask')!.textContent).to.equal('Did this help?');
    expect(thumbs(r).map(nameOf)).to.deep.equal(['Helpful', 'Not helpful']);
    expect(thumbs(r).map((b) => b.getAttribute('aria-pressed'))).to.deep.equal(['false', 'false']);
    await expect(await prompt()).shadowDom.to.be.accessible();

    // a visitor's message reopens it: the prompt goes
    update({ status: 'open', updatedAt: '2026-01-01T12:00:00.000Z' });
    await waitUntil(async () => (await prompt()) === null, 'the prompt gone when reopened');
  });

  it('is not asked in an assistant-only conversation, nor in a snoozed one', async () => {
    const aiOnly = await setup({ status: 'resolved' }, { person: false });
    expect(await aiOnly.prompt()).to.be.null;
    const snoozed = await setup({ status: 'snoozed' });
    expect(await snoozed.prompt()).to.be.null;
  });

  it('stores a thumb at once, then the optional comment; the thanks take the focus when the form goes', async () => {
    const { api, c, root, store } = await setup({ status: 'resolved' });
    let r = await root();
    thumbs(r)[1]!.click();
    await waitUntil(() => api.callsOf('rate').length === 1, 'the rating sent');
    expect(api.callsOf('rate')).to.deep.equal([[{ conversationId: c.id, rating: -1 }]]);
    await settle();
    r = await root();
    expect(store.conversation(c.id)!.rating).to.equal(-1);
    expect(thumbs(r).map((b) => b.getAttribute('aria-pressed'))).to.deep.equal(['false', 'true']);
    expect(r.querySelector('[role=status]')!.textContent).to.equal('Thank you for your feedback.');

    // the comment: labelled, bounded, sent with the thumb
    const box = r.querySelector('textarea')!;
    expect(r.querySelector(`label[for=${box.id}]`)!.textContent).to.equal('Anything to add? (optional)');
    expect(box.maxLength).to.equal(1000);
    box.value = 'It took three days.';
    r.querySelector<HTMLButtonElement>('form button[type=submit]')!.click();
    await waitUntil(() => api.callsOf('rate').length === 2, 'the comment sent');
    expect(api.callsOf('rate')[1]).to.deep.equal([{ conversationId: c.id, rating: -1, comment: 'It took three days.' }]);
    await waitUntil(() => !r.querySelector('form'), 'the form gone');
    expect(r.activeElement).to.equal(r.querySelector('[role=status]'));

    // changed within the same resolution: the other thumb, no comment (the one sent stays on the server)
    thumbs(r)[0]!.click();
    await waitUntil(() => api.callsOf('rate').length === 3, 'the change sent');
    expect(api.callsOf('rate')[2]).to.deep.equal([{ conversationId: c.id, rating: 1 }]);
    await settle();
    expect(thumbs(await root()).map((b) => b.getAttribute('aria-pressed'))).to.deep.equal(['true', 'false']);
  });

  it('shows the rating the server holds when the thread opens, and asks nothing more', async () => {
    const { root, api } = await setup({ status: 'resolved', rating: 1 });
    const r = await root();
    expect(thumbs(r).map((b) => b.getAttribute('aria-pressed'))).to.deep.equal(['true', 'false']);
    expect(r.querySelector('form')).to.be.null;
    expect(r.querySelector('[role=status]')!.textContent).to.equal('Thank you for your feedback.');
    expect(api.callsOf('rate')).to.deep.equal([]);
  });

  it('says so when the rating could not be sent, and leaves the buttons as they were', async () => {
    const { api, c, root, store } = await setup({ status: 'resolved' });
    api.refuseRating = true;
    const r = await root();
    thumbs(r)[0]!.click();
    await waitUntil(() => r.querySelector('[role=alert]'), 'the error');
    expect(r.querySelector('[role=alert]')!.textContent).to.equal('Your answer could not be sent. Try again.');
    expect(thumbs(r).map((b) => b.getAttribute('aria-pressed'))).to.deep.equal(['false', 'false']);
    expect(r.querySelector('form')).to.be.null;
    expect(store.conversation(c.id)!.rating).to.equal(null);
    api.refuseRating = false;
    thumbs(r)[0]!.click();
    await waitUntil(() => !r.querySelector('[role=alert]') && r.querySelector('form'), 'sent on the second try');
  });
});
