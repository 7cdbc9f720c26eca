/// <reference types="mocha" />
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../panel/panel.ts';
import type { HeedPanel } from '../panel/panel.component.ts';
import { HeedStore } from '../state/store.ts';
import type { ConversationView } from '../state/types.ts';
import { conversation, FakeApi, message, settle } from '../test-support/fake-api.ts';
import { takeResumeToken } from '../host/resume-link.ts';

const T0 = '2026-01-01T10:00:00.000Z';
let keyN = 0;

/** A panel with a thread open where a person is to reply (unless `over` says otherwise), on a server that emails. */
async function setup(over: Partial<ConversationView> = {}, opts: { emailReplies?: boolean; contactKey?: string } = {}) {
  const c = conversation({ title: 'Parcel', waitingForPerson: true, lastAssistantAt: T0, lastReadAt: T0, ...over });
  const api = new FakeApi({ conversations: [c], site: { name: 'Acme' } });
  api.emailReplies = opts.emailReplies ?? true;
  api.messages.set(c.id, [message({ conversationId: c.id, role: 'user', content: 'A person, please.', createdAt: T0 })]);
  const contactKey = opts.contactKey ?? `heed:contact:test-${++keyN}`;
  const store = new HeedStore({ api, siteKey: 'site', contactKey });
  await store.start();
  const el = await fixture<HeedPanel>(html`<heed-panel .store=${store} layout="wide" open></heed-panel>`);
  await settle();
  await el.openConversation(c.id);
  await settle();
  const offer = async () => {
    await el.updateComplete;
    return el.shadowRoot!.querySelector('heed-contact-email');
  };
  const root = async () => {
    const o = (await offer())!;
    await o.updateComplete;
    return o.shadowRoot!;
  };
  const update = (patch: Partial<ConversationView>) =>
    api.emit({ type: 'conversation.updated', conversationId: c.id, conversation: { ...store.conversation(c.id)!, ...patch } });
  return { el, api, store, c, offer, root, update, contactKey };
}

async function fill(root: ShadowRoot, value: string) {
  root.querySelector<HTMLInputElement>('#email')!.value = value;
  root.querySelector<HTMLFormElement>('form')!.requestSubmit();
}

describe('heed-contact-email', () => {
  it('offers, while a person is to reply, to hear back by email: a labelled field, Email me and No thanks', async () => {
    const { offer, root, update } = await setup();
    const r = await root();
    expect(r.querySelector('form')!.getAttribute('aria-labelledby')).to.equal('offer');
    expect(r.getElementById('offer')!.textContent).to.equal('Leave your email to hear back if you leave this page.');
    const input = r.querySelector<HTMLInputElement>('#email')!;
    expect(input.labels![0]!.textContent).to.equal('Your email');
    expect([input.type, input.autocomplete]).to.deep.equal(['email', 'email']);
    expect([...r.querySelectorAll('button')].map((b) => b.textContent)).to.deep.equal(['Email me', 'No thanks']);
    await expect(await offer()).shadowDom.to.be.accessible();

    // held by a person: still offered; back with the assistant: gone
    update({ waitingForPerson: false, heldBy: 'Ana' });
    await settle();
    expect(await offer()).to.not.be.null;
    update({ waitingForPerson: false, heldBy: null });
    await waitUntil(async () => (await offer()) === null, 'the offer gone once no person is to reply');
  });

  it('is not offered in a private conversation, with the assistant alone, or by a server that sends no email', async () => {
    expect(await (await setup({ private: true })).offer()).to.be.null;
    expect(await (await setup({ waitingForPerson: false })).offer()).to.be.null;
    expect(await (await setup({}, { emailReplies: false })).offer()).to.be.null;
  });

  it('stores the address with the page the visitor is on, then says where it will write, with focus there', async () => {
    const { api, root, offer } = await setup();
    const r = await root();
    await fill(r, 'not-an-address');
    await (await offer())!.updateComplete;
    const input = r.querySelector<HTMLInputElement>('#email')!;
    expect(r.querySelector('[role=alert]')!.textContent).to.equal('Enter an email address, like name@example.com.');
    expect([input.getAttribute('aria-invalid'), input.getAttribute('aria-describedby')]).to.deep.equal(['true', 'error']);
    expect(r.activeElement).to.equal(input);
    expect(api.callsOf('setContactEmail')).to.have.length(0);

    await fill(r, ' ana@example.com ');
    await waitUntil(() => r.querySelector('.saved'), 'the confirmation');
    expect(api.callsOf('setContactEmail')).to.deep.equal([['ana@example.com', location.href]]);
    const saved = r.querySelector<HTMLElement>('.saved')!;
    expect(saved.getAttribute('role')).to.equal('status');
    expect(saved.textContent).to.equal('We will email ana@example.com when someone replies.');
    expect(r.activeElement).to.equal(saved);
  });

  it('says so when the address could not be stored, and keeps the form', async () => {
    const { api, root } = await setup();
    api.contactAnswer = async () => {
      throw new Error('Internal server error');
    };
    const r = await root();
    await fill(r, 'ana@example.com');
    await waitUntil(() => r.querySelector('[role=alert]'), 'the error');
    expect(r.querySelector('[role=alert]')!.textContent).to.equal('Your address could not be saved. Try again.');
    expect(r.querySelector('form')).to.not.be.null;
  });

  it('No thanks hides it for good for this visitor, and the composer takes the focus', async () => {
    const { el, offer, root, contactKey } = await setup();
    (await root()).querySelector<HTMLButtonElement>('.skip')!.click();
    await waitUntil(async () => (await offer()) === null, 'the offer gone');
    const composer = el.shadowRoot!.querySelector('heed-composer')!;
    expect(el.shadowRoot!.activeElement).to.equal(composer);
    // the next page view of this visitor is not asked again
    const again = await setup({}, { contactKey });
    expect(await again.offer()).to.be.null;
  });
});

describe('a reply email’s link', () => {
  it('is taken out of the address, the rest of it kept', () => {
    const replaced: string[] = [];
    const hist = { state: null, replaceState: (_s: unknown, _t: string, url: string) => replaced.push(url) } as unknown as History;
    expect(takeResumeToken({ hash: '#heed-resume=r1.abc', pathname: '/help', search: '?a=1' }, hist)).to.equal('r1.abc');
    expect(takeResumeToken({ hash: '#top&heed-resume=r1.def', pathname: '/', search: '' }, hist)).to.equal('r1.def');
    expect(takeResumeToken({ hash: '#top', pathname: '/', search: '' }, hist)).to.equal(undefined);
    expect(replaced).to.deep.equal(['/help?a=1', '/#top']);
  });

  it('starts the session of the link’s visitor and names the conversation to open; a refused link starts as usual', async () => {
    const c = conversation({ title: 'Parcel' });
    const api = new FakeApi({ conversations: [c] });
    api.resumeAnswer = async () => ({ visitorId: 'v-linked', conversationId: c.id });
    const opened: string[] = [];
    const store = new HeedStore({ api, siteKey: 'site', resumeToken: 'r1.good', onResumed: (id) => opened.push(id) });
    await store.start();
    expect(api.callsOf('resumeSession')).to.have.length(1);
    expect(api.callsOf('startSession')).to.have.length(0);
    expect([store.state.visitorId, api.token, opened]).to.deep.equal(['v-linked', 'token-v-linked', [c.id]]);
    store.stop();

    const refused = new FakeApi({ conversations: [c] });
    const other = new HeedStore({ api: refused, siteKey: 'site', resumeToken: 'r1.forged', onResumed: (id) => opened.push(id) });
    await other.start();
    expect(refused.callsOf('resumeSession')).to.have.length(1);
    expect(refused.callsOf('startSession')).to.have.length(1);
    expect(other.state.visitorId).to.equal('v1');
    expect(opened).to.have.length(1);
    other.stop();
  });
});
