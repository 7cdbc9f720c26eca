/// <reference types="mocha" />
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import './panel.ts';
import type { HeedPanel } from './panel.component.ts';
import { HeedStore } from '../state/store.ts';
import type { ConversationView } from '../state/types.ts';
import { conversation, FakeApi, message, setVisibility, settle } from '../test-support/fake-api.ts';

const T0 = '2026-01-01T10:00:00.000Z';
const T1 = '2026-01-01T11:00:00.000Z';
const T2 = '2026-01-01T12:00:00.000Z';

/** A panel with a thread open: one visitor message and one reply, read. */
async function setup(over: Partial<ConversationView> = {}, opts: { open?: boolean } = {}) {
  const c = conversation({ title: 'Delivery', lastAssistantAt: T0, lastReadAt: T0, ...over });
  const api = new FakeApi({ conversations: [c], site: { name: 'Acme' } });
  api.messages.set(c.id, [
    message({ conversationId: c.id, role: 'user', content: 'Where is my parcel?', createdAt: T0 }),
    message({ conversationId: c.id, content: 'On its way.', createdAt: T0 }),
  ]);
  const store = new HeedStore({ api, siteKey: 'site' });
  await store.start();
  const el = await fixture<HeedPanel>(html`<heed-panel .store=${store} layout="wide" ?open=${opts.open ?? true} closable></heed-panel>`);
  await settle();
  await el.openConversation(c.id);
  await settle();
  const heading = () => el.shadowRoot!.querySelector('heed-heading')!;
  const list = () => el.shadowRoot!.querySelector('heed-message-list')!;
  const label = async () => {
    await el.updateComplete;
    await heading().updateComplete;
    return heading().shadowRoot!.querySelector('.provenance')?.textContent ?? null;
  };
  const menuToggle = async () => {
    await el.updateComplete;
    await heading().updateComplete;
    const root = heading().shadowRoot!;
    if (!root.querySelector('[role="menuitemcheckbox"]')) {
      root.querySelector<HTMLButtonElement>('.menu-button')!.click();
      await heading().updateComplete;
    }
    return root.querySelector<HTMLButtonElement>('[role="menuitemcheckbox"]')!;
  };
  const update = (patch: Partial<ConversationView>) => {
    const now = store.conversation(c.id)!;
    api.emit({ type: 'conversation.updated', conversationId: c.id, conversation: { ...now, ...patch } });
  };
  return { el, api, store, c, heading, list, label, menuToggle, update };
}

describe('heed-panel: people, intents and private', () => {
  afterEach(() => setVisibility(null));

  it('says in the heading who answers, live: waiting for a person, then the operator, combined with Private', async () => {
    const { label, update } = await setup();
    expect(await label()).to.be.null;
    update({ waitingForPerson: true, updatedAt: T1 });
    expect(await label()).to.equal('Waiting for a person');
    update({ waitingForPerson: false, heldBy: 'Ana', updatedAt: T2 });
    expect(await label()).to.equal('Operator — Ana');
    update({ private: true, updatedAt: '2026-01-01T12:01:00.000Z' });
    expect(await label()).to.equal('Private · Operator — Ana');
    update({ heldBy: null, updatedAt: '2026-01-01T12:02:00.000Z' });
    expect(await label()).to.equal('Private');
  });

  it('marks the conversation private from the heading’s menu: shown at once, then the server’s answer', async () => {
    const { api, c, label, menuToggle, store } = await setup();
    let release!: () => void;
    api.hold = new Promise((r) => (release = r));
    (await menuToggle()).click();
    expect(await label(), 'optimistic').to.equal('Private');
    expect((await menuToggle()).getAttribute('aria-checked')).to.equal('true');
    release();
    await settle();
    expect(api.callsOf('setPrivate')).to.deep.equal([[c.id, true]]);
    expect(store.conversation(c.id)!.private).to.be.true;
    expect(await label()).to.equal('Private');
  });

  it('puts the old state back when the server refuses', async () => {
    const { api, c, label, menuToggle, store } = await setup({ private: true });
    expect(await label()).to.equal('Private');
    api.refusePrivate = true;
    (await menuToggle()).click();
    await settle();
    expect(api.callsOf('setPrivate')).to.deep.equal([[c.id, false]]);
    expect(store.conversation(c.id)!.private).to.be.true;
    expect(await label()).to.equal('Private');
    expect((await menuToggle()).getAttribute('aria-checked')).to.equal('true');
  });

  it('adds an operator’s notice and message to the open thread live, and the badge moves as for a reply', async () => {
    const { el, api, c, store, list, label, update } = await setup({}, { open: false });
    const joined = message({
      conversationId: c.id,
      role: 'notice',
      provenance: 'operator_joined',
      provenanceLabel: 'Ana',
      content: '',
      createdAt: T1,
    });
    api.emit({ type: 'message.created', conversationId: c.id, message: joined });
    update({ heldBy: 'Ana', updatedAt: T1 });
    await settle();
    expect(store.counts.unread, 'a notice is never unread').to.equal(0);
    const said = message({
      conversationId: c.id,
      role: 'operator',
      provenance: 'operator',
      provenanceLabel: 'Ana',
      content: 'Hi, Ana here.',
      createdAt: T2,
    });
    api.emit({ type: 'message.created', conversationId: c.id, message: said });
    update({ lastAssistantAt: T2, excerpt: 'Hi, Ana here.', updatedAt: T2 });
    await el.updateComplete;
    await list().updateComplete;
    const root = list().shadowRoot!;
    expect(root.querySelector('.notice')!.textContent).to.equal('Ana joined');
    expect(root.querySelector('.operator .provenance')!.textContent).to.equal('Operator — Ana');
    expect(await label()).to.equal('Operator — Ana');
    expect(store.counts.unread, 'the panel is closed: unread').to.equal(1);
    // opened and visible, the operator's message is what the visitor sees: marked read with its time
    setVisibility('visible');
    el.open = true;
    await waitUntil(() => api.callsOf('markRead').length > 0);
    expect(api.callsOf('markRead')).to.deep.equal([[c.id, T2]]);
    expect(store.counts.unread).to.equal(0);
  });

  it('adds an unsolicited reply with its label to the open thread live, through the same stream as replies, and the badge moves', async () => {
    const { el, api, c, store, list, label, update } = await setup({}, { open: false });
    api.emit({ type: 'run.started', conversationId: c.id, runId: 'r9', claimedMessageIds: [] });
    update({ live: true, liveRunId: 'r9', updatedAt: T1 });
    api.emit({ type: 'reply.delta', conversationId: c.id, runId: 'r9', offset: 0, text: 'Questions about plans?' });
    await settle();
    expect(store.counts.live).to.equal(1);
    const reply = message({
      conversationId: c.id,
      runId: 'r9',
      provenance: 'intent',
      provenanceLabel: 'viewed Pricing',
      content: 'Questions about plans?',
      createdAt: T2,
    });
    api.emit({ type: 'reply.completed', conversationId: c.id, runId: 'r9', message: reply });
    update({ live: false, liveRunId: null, lastAssistantAt: T2, updatedAt: T2 });
    await el.updateComplete;
    await list().updateComplete;
    const bubbles = [...list().shadowRoot!.querySelectorAll('.assistant')];
    expect(bubbles).to.have.length(2);
    expect(bubbles[1]!.querySelector('.provenance')!.textContent).to.equal('Because you viewed Pricing');
    expect(await label()).to.equal('Because you viewed Pricing');
    expect(store.counts).to.deep.equal({ unread: 1, live: 0, inputNeeded: 0 });
  });

  it('shows the handoff line with the site’s name and the waiting label', async () => {
    const { api, c, list, label, update, el } = await setup();
    api.emit({
      type: 'message.created',
      conversationId: c.id,
      message: message({ conversationId: c.id, role: 'notice', provenance: 'handoff_requested', content: '', createdAt: T1 }),
    });
    update({ waitingForPerson: true, updatedAt: T1 });
    await el.updateComplete;
    await list().updateComplete;
    expect(list().shadowRoot!.querySelector('.notice')!.textContent).to.equal(
      'A person from Acme will reply here — you can leave this page.',
    );
    expect(await label()).to.equal('Waiting for a person');
  });

  it('passes axe with the menu open on a held, private conversation', async () => {
    const { el, menuToggle } = await setup({ heldBy: 'Ana', private: true });
    await menuToggle();
    await expect(el).shadowDom.to.be.accessible();
  });
});
