/// <reference types="mocha" />
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../widget/widget.ts';
import '../unread-badge/unread-badge.ts';
import type { HeedWidget } from '../widget/widget.component.ts';
import { HeedStore } from '../state/store.ts';
import { wireHost } from './wire-host.ts';
import type { HeedCommand } from './host-api.ts';
import { COUNTS_EVENT } from './counts-signal.ts';
import { conversation, FakeApi, message, settle } from '../test-support/fake-api.ts';
import type { AttentionCounts, ConversationView } from '../state/types.ts';

/** A widget wired to a page whose `Heed` stub queued `queue` before load; the store is not started. */
async function setup(queue: unknown[][] = [], conversations: ConversationView[] = []) {
  const api = new FakeApi({ conversations });
  const store = new HeedStore({ api, siteKey: 'site' });
  const widget = await fixture<HeedWidget>(html`<heed-widget></heed-widget>`);
  widget.store = store;
  const w: { Heed?: HeedCommand } = { Heed: Object.assign(() => {}, { q: queue }) };
  wireHost({ store, widget, w });
  return { api, store, widget, w };
}

describe("Heed('intent', name, data?)", () => {
  let debug: typeof console.debug;
  let debugged: unknown[][];
  beforeEach(() => {
    debug = console.debug;
    debugged = [];
    console.debug = (...args: unknown[]) => void debugged.push(args);
  });
  afterEach(() => (console.debug = debug));

  it('sends an intent queued before the widget loaded, once the session exists, exactly once', async () => {
    const { api, store } = await setup([['intent', 'viewed_pricing', { plan: 'pro' }]]);
    expect(api.callsOf('fireIntent'), 'no session yet').to.deep.equal([]);
    await store.start();
    await waitUntil(() => api.callsOf('fireIntent').length > 0);
    await settle();
    expect(api.callsOf('fireIntent')).to.deep.equal([['viewed_pricing', { plan: 'pro' }]]);
    // the session's later changes do not send it again
    store.set({});
    await settle();
    expect(api.callsOf('fireIntent')).to.have.length(1);
  });

  it('sends at once when the session exists, data optional', async () => {
    const { api, store, w } = await setup();
    await store.start();
    expect(w.Heed!('intent', 'cart_abandoned')).to.be.undefined;
    await settle();
    expect(api.callsOf('fireIntent')).to.deep.equal([['cart_abandoned', undefined]]);
  });

  it('ignores a name that is not a string of 1–64 characters, on the page’s side too', async () => {
    const { api, store, w } = await setup([['intent', 42]]);
    await store.start();
    for (const bad of [undefined, null, '', 'x'.repeat(65), { name: 'viewed_pricing' }]) w.Heed!('intent', bad);
    w.Heed!('intent', 'x'.repeat(64));
    await settle();
    expect(api.callsOf('fireIntent')).to.deep.equal([['x'.repeat(64), undefined]]);
    expect(debugged.length).to.equal(6);
  });

  it('never throws into the host page: a refused or failed call is only a debug line', async () => {
    const { api, store, w } = await setup();
    await store.start();
    api.intentAnswer = () => Promise.reject(new Error('Too many requests'));
    const unhandled: unknown[] = [];
    const onUnhandled = (e: PromiseRejectionEvent) => unhandled.push(e.reason);
    addEventListener('unhandledrejection', onUnhandled);
    try {
      expect(() => w.Heed!('intent', 'viewed_pricing', { n: 1 })).to.not.throw();
      await settle();
      await settle();
      expect(unhandled).to.deep.equal([]);
      expect(String(debugged.at(-1)?.[0])).to.contain('intent not sent');
    } finally {
      removeEventListener('unhandledrejection', onUnhandled);
    }
  });

  it('tells host listeners of an operator’s message like a reply, and its unread moves the host count', async () => {
    const c = conversation({ title: 'Delivery' });
    const { api, store, w } = await setup([], [c]);
    const counts: AttentionCounts[] = [];
    const onCounts = (e: Event) => counts.push((e as CustomEvent<AttentionCounts>).detail);
    addEventListener(COUNTS_EVENT, onCounts);
    try {
      await store.start();
      const heard: unknown[] = [];
      w.Heed!('on', 'message', (m: unknown) => heard.push(m));
      const notice = message({ conversationId: c.id, role: 'notice', provenance: 'operator_joined', provenanceLabel: 'Ana', content: '' });
      const said = message({
        conversationId: c.id,
        role: 'operator',
        provenance: 'operator',
        provenanceLabel: 'Ana',
        content: 'Hi',
        createdAt: '2026-01-01T11:00:00.000Z',
      });
      api.emit({ type: 'message.created', conversationId: c.id, message: notice });
      api.emit({ type: 'message.created', conversationId: c.id, message: said });
      api.emit({
        type: 'conversation.updated',
        conversationId: c.id,
        conversation: { ...c, heldBy: 'Ana', lastAssistantAt: said.createdAt, updatedAt: said.createdAt },
      });
      expect(heard).to.deep.equal([said]);
      expect(counts.at(-1)).to.deep.equal({ unread: 1, live: 0, inputNeeded: 0 });
    } finally {
      removeEventListener(COUNTS_EVENT, onCounts);
    }
  });

  it('counts no badge for a conversation waiting for a person', async () => {
    const { store, widget } = await setup([], [conversation({ waitingForPerson: true })]);
    await store.start();
    await settle();
    await widget.updateComplete;
    expect(store.counts).to.deep.equal({ unread: 0, live: 0, inputNeeded: 0 });
    expect(widget.shadowRoot!.querySelector('heed-launcher')!.shadowRoot!.querySelector('.badge')).to.be.null;
  });
});
