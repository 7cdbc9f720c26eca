/// <reference types="mocha" />
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import './takeover.ts';
import type { HeedConsoleTakeover } from './takeover.component.ts';
import type { Holder } from '../state/contract.ts';
import { fakeConsoleApi, owner, refusal } from '../test-support/fake-console-api.ts';

const ana: Holder = { id: owner.id, name: 'Ana' };

async function takeover(heldBy: Holder | null, over: Parameters<typeof fakeConsoleApi>[0] = {}, isPrivate = false) {
  const fake = fakeConsoleApi(over);
  const changed: unknown[] = [];
  const el = await fixture<HeedConsoleTakeover>(
    html`<heed-console-takeover .api=${fake.api} .me=${owner} conversationId="c-1" .heldBy=${heldBy} .isPrivate=${isPrivate} @heed-conversation-changed=${(e: CustomEvent) => changed.push(e.detail)}></heed-console-takeover>`,
  );
  const root = el.shadowRoot!;
  const button = (text: string) => [...root.querySelectorAll('button')].find((b) => b.textContent!.trim() === text) ?? null;
  return { el, root, fake, changed, button };
}

const boxLabel = (root: ShadowRoot) => root.querySelector('label[for=compose]')?.textContent ?? null;

describe('heed-console-takeover', () => {
  it('offers "Take over" while the assistant answers, and asks for a reload once taken', async () => {
    const { root, fake, changed, button } = await takeover(null);
    // no reply before the hold: the box writes a note
    expect(boxLabel(root)).to.equal('Note');
    expect(button('Send')).to.equal(null);
    button('Take over')!.click();
    await waitUntil(() => changed.length === 1);
    expect(fake.callsOf('takeOver')).to.deep.equal([['c-1']]);
  });

  it('focuses the Reply box once the hold is this operator’s', async () => {
    const { el, root, button, changed } = await takeover(null);
    button('Take over')!.click();
    await waitUntil(() => changed.length === 1);
    el.heldBy = ana;
    await el.updateComplete;
    expect(root.activeElement).to.equal(root.querySelector('textarea'));
  });

  it('sends a reply with one clientMessageId, kept for a resend after a failure and fresh after success', async () => {
    let fail = true;
    const { root, fake, button, changed } = await takeover(ana, {
      reply: async (input) => {
        if (fail) throw refusal('INTERNAL_SERVER_ERROR', null, 'Try again.');
        return {
          id: 'm9',
          role: 'operator',
          content: input.text,
          provenance: 'operator',
          provenanceLabel: 'Ana',
          state: null,
          error: null,
          createdAt: '2026-01-01T10:00:00Z',
          runId: null,
        };
      },
    });
    expect(root.querySelector('.held')!.textContent).to.contain('Held by Ana');
    const box = root.querySelector('textarea')!;
    expect(box.labels![0]!.textContent).to.equal('Reply');
    box.value = 'Hello, I can help.';
    button('Send')!.click();
    await waitUntil(() => root.querySelector('[role=alert]'));
    fail = false;
    box.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', ctrlKey: true, bubbles: true, composed: true }));
    await waitUntil(() => box.value === '');
    const [first, second] = fake.callsOf('reply').map(([input]) => input as { text: string; clientMessageId: string });
    expect(second!.text).to.equal('Hello, I can help.');
    expect(second!.clientMessageId).to.equal(first!.clientMessageId);
    box.value = 'Anything else?';
    button('Send')!.click();
    await waitUntil(() => fake.callsOf('reply').length === 3 && box.value === '');
    expect((fake.callsOf('reply')[2]![0] as { clientMessageId: string }).clientMessageId).to.not.equal(first!.clientMessageId);
    expect(changed.length).to.be.greaterThan(1);
  });

  it('refuses to send nothing, and hands back, focus landing on "Take over"', async () => {
    const { el, root, fake, button } = await takeover(ana);
    button('Send')!.click();
    await waitUntil(() => root.querySelector('[role=alert]'));
    expect(root.querySelector('[role=alert]')!.textContent).to.equal('Write a reply first.');
    expect(fake.callsOf('reply')).to.have.length(0);
    button('Hand back')!.click();
    await waitUntil(() => fake.callsOf('handBack').length === 1);
    el.heldBy = null;
    await el.updateComplete;
    expect(root.activeElement).to.equal(button('Take over'));
  });

  it('shows who holds it when another operator does, with a note box but no reply box, and only an owner may hand it back', async () => {
    const { root, button } = await takeover({ id: 'op-7', name: 'Ben' });
    expect(root.querySelector('.held')!.textContent!.trim()).to.equal('Held by Ben');
    expect(boxLabel(root)).to.equal('Note');
    expect(root.querySelector('[role=radiogroup]')).to.equal(null);
    expect(button('Take over')).to.equal(null);
    expect(button('Hand back')).to.exist;
    const agent = await fixture<HeedConsoleTakeover>(
      html`<heed-console-takeover .api=${fakeConsoleApi().api} .me=${{ ...owner, role: 'agent' }} conversationId="c-1" .heldBy=${{ id: 'op-7', name: 'Ben' }}></heed-console-takeover>`,
    );
    expect(agent.shadowRoot!.querySelector('button:not([type=submit])')).to.equal(null);
  });

  it('shows held_by_other and not_holding inline, and asks for a reload', async () => {
    const taken = await takeover(null, {
      takeOver: async () => Promise.reject(refusal('CONFLICT', 'held_by_other', 'Ben has already taken this conversation over.')),
    });
    taken.button('Take over')!.click();
    await waitUntil(() => taken.root.querySelector('[role=alert]'));
    expect(taken.root.querySelector('[role=alert]')!.textContent).to.equal('Ben has already taken this conversation over.');
    expect(taken.changed).to.have.length(1);
    const lost = await takeover(ana, {
      reply: async () => Promise.reject(refusal('CONFLICT', 'not_holding', 'Take this conversation over before you reply.')),
    });
    lost.root.querySelector('textarea')!.value = 'Still there?';
    lost.button('Send')!.click();
    await waitUntil(() => lost.root.querySelector('[role=alert]'));
    expect(lost.root.querySelector('[role=alert]')!.textContent).to.equal('Take this conversation over before you reply.');
    expect(lost.root.querySelector('textarea')!.value).to.equal('Still there?');
  });

  it('offers no take-over on a private conversation, only a note', async () => {
    const { root, button } = await takeover(null, {}, true);
    expect(button('Take over')).to.equal(null);
    expect(root.textContent).to.contain('cannot be taken over');
    expect(boxLabel(root)).to.equal('Note');
  });

  it('adds an internal note, and the holder switches between reply and note', async () => {
    const { root, fake, button, changed } = await takeover(ana);
    expect(boxLabel(root)).to.equal('Reply');
    root.querySelector<HTMLInputElement>('input[value=note]')!.click();
    await waitUntil(() => boxLabel(root) === 'Note');
    root.querySelector('textarea')!.value = 'Wholesale customer';
    button('Add note')!.click();
    await waitUntil(() => changed.length === 1);
    expect(fake.callsOf('addNote')).to.deep.equal([['c-1', 'Wholesale customer']]);
    expect(fake.callsOf('reply')).to.deep.equal([]);
    expect(root.querySelector('textarea')!.value).to.equal('');
  });

  it('inserts a canned reply from the list that / opens, chosen with the arrow keys', async () => {
    const canned = [
      { id: 'r1', shortcut: 'refund', content: 'Refunds take 5 days.', updatedAt: '2026-01-01T00:00:00Z' },
      { id: 'r2', shortcut: 'returns', content: 'Send it back within 30 days.', updatedAt: '2026-01-01T00:00:00Z' },
    ];
    const fake = fakeConsoleApi({ cannedReplies: async () => canned });
    const el = await fixture<HeedConsoleTakeover>(
      html`<heed-console-takeover .api=${fake.api} .me=${owner} conversationId="c-1" siteId="site-1" .heldBy=${ana}></heed-console-takeover>`,
    );
    const root = el.shadowRoot!;
    const box = root.querySelector('textarea')!;
    box.focus();
    box.value = 'Hello! /re';
    box.setSelectionRange(10, 10);
    box.dispatchEvent(new InputEvent('input'));
    await waitUntil(() => root.querySelectorAll('[role=option]').length === 2, 'the list of matches');
    expect(fake.callsOf('cannedReplies')).to.deep.equal([['site-1']]);
    expect(box.getAttribute('aria-activedescendant')).to.equal('canned-0');
    box.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowDown', bubbles: true, composed: true }));
    await el.updateComplete;
    expect(box.getAttribute('aria-activedescendant')).to.equal('canned-1');
    box.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, composed: true, cancelable: true }));
    await el.updateComplete;
    expect(box.value).to.equal('Hello! Send it back within 30 days.');
    expect(root.querySelector('[role=listbox]')).to.equal(null);
  });

  it('is accessible', async () => {
    const { el } = await takeover(ana);
    await expect(el).shadowDom.to.be.accessible();
  });
});
