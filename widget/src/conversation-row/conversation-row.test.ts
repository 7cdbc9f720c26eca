/// <reference types="mocha" />
import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { emulateMedia } from '@web/test-runner-commands';
import './conversation-row.ts';
import type { HeedConversationRow } from './conversation-row.component.ts';
import { conversation } from '../test-support/fake-api.ts';
import type { ConversationView } from '../state/types.ts';

const NOW = Date.parse('2026-01-01T12:00:00Z');
const replied = { lastAssistantAt: '2026-01-01T11:00:00Z' };

async function row(c: ConversationView, collapsed = false) {
  const el = await fixture<HeedConversationRow>(
    html`<heed-conversation-row .conversation=${c} .now=${NOW} ?collapsed=${collapsed}></heed-conversation-row>`,
  );
  const button = el.shadowRoot!.querySelector('button')!;
  const look = (sel: string) => getComputedStyle(el.shadowRoot!.querySelector(sel)!);
  return { el, button, look };
}

describe('heed-conversation-row', () => {
  it('shows the four states with distinct icon, dot, background, border and text', async () => {
    const cases = [
      { c: conversation({ live: true }), state: 'live', text: 'Live' },
      { c: conversation({ inputNeeded: true }), state: 'input_needed', text: 'Input needed' },
      { c: conversation(replied), state: 'unviewed', text: 'New response' },
      { c: conversation({ updatedAt: '2026-01-01T09:00:00Z' }), state: 'default', text: '3 hours ago' },
    ];
    const seen = { background: new Set(), border: new Set(), icon: new Set(), dot: new Set() };
    for (const { c, state, text } of cases) {
      const { button, look, el } = await row(c);
      expect(button.dataset.state).to.equal(state);
      expect(button.textContent).to.contain(text);
      seen.background.add(look('.row').backgroundColor);
      seen.border.add(look('.row').borderInlineStartColor);
      seen.icon.add(el.shadowRoot!.querySelector('svg')!.innerHTML);
      seen.dot.add(look('.dot').display === 'none' ? 'none' : look('.dot').backgroundColor);
    }
    for (const [what, values] of Object.entries(seen)) expect(values.size, what).to.equal(4);
  });

  it('replaces the date with the state text, bold in the state colour; the default row keeps its date in plain weight', async () => {
    for (const c of [conversation({ live: true }), conversation({ inputNeeded: true }), conversation(replied)]) {
      const { look } = await row(c);
      expect(look('.status').fontWeight).to.equal('700');
      expect(look('.status').color).to.equal(look('.icon').color);
      expect(look('.status').color).to.equal(look('.row').borderInlineStartColor);
    }
    expect((await row(conversation({ updatedAt: '2026-01-01T09:00:00Z' }))).look('.status').fontWeight).to.equal('400');
  });

  it('pings the dot while live and while input is needed; the unviewed dot is solid', async () => {
    const ping = async (c: ConversationView) => {
      const { el } = await row(c);
      return getComputedStyle(el.shadowRoot!.querySelector('.dot')!, '::after').animationName;
    };
    expect(await ping(conversation({ live: true }))).to.equal('ping');
    expect(await ping(conversation({ inputNeeded: true }))).to.equal('ping');
    expect(await ping(conversation(replied))).to.equal('none');
  });

  it('does not pulse for visitors who ask for reduced motion', async () => {
    await emulateMedia({ reducedMotion: 'reduce' });
    try {
      const { el } = await row(conversation({ live: true }));
      expect(getComputedStyle(el.shadowRoot!.querySelector('.dot')!, '::after').animationName).to.equal('none');
      expect(getComputedStyle(el.shadowRoot!.querySelector('.dot')!).display).to.equal('block');
    } finally {
      await emulateMedia({ reducedMotion: 'no-preference' });
    }
  });

  it('makes an unviewed title bold and others not', async () => {
    expect((await row(conversation(replied))).look('.title').fontWeight).to.equal('700');
    expect((await row(conversation())).look('.title').fontWeight).to.equal('400');
  });

  it('picks the state by priority live > input needed > unviewed > default', async () => {
    expect((await row(conversation({ live: true, inputNeeded: true, ...replied }))).button.dataset.state).to.equal('live');
    expect((await row(conversation({ inputNeeded: true, ...replied }))).button.dataset.state).to.equal('input_needed');
    expect((await row(conversation({ ...replied, lastReadAt: '2026-01-01T10:00:00Z' }))).button.dataset.state).to.equal('unviewed');
    expect((await row(conversation({ ...replied, lastReadAt: '2026-01-01T11:00:00Z' }))).button.dataset.state).to.equal('default');
  });

  it('leaves input needed once the visitor viewed the question, though it is still open', async () => {
    const request = { id: 'q1', question: 'Which size?', choices: [], allowFreeText: true, createdAt: '2026-01-01T11:00:00.000Z' };
    const asked = { ...replied, inputRequest: request };
    expect((await row(conversation(asked))).button.dataset.state).to.equal('input_needed');
    expect((await row(conversation({ ...asked, lastReadAt: '2026-01-01T11:00:00.000Z' }))).button.dataset.state).to.equal('default');
  });

  it('keeps icon and dot visible when collapsed, with the text only for screen readers', async () => {
    const { look, el, button } = await row(conversation({ live: true, title: 'Billing' }), true);
    expect(look('.icon').display).to.not.equal('none');
    expect(look('.dot').display).to.equal('block');
    const text = el.shadowRoot!.querySelector('.sr-only')!;
    expect(text.textContent).to.contain('Billing');
    expect(getComputedStyle(text).width).to.equal('1px');
    expect(button.textContent).to.contain('Live');
  });

  it('emits heed-select with its id when clicked', async () => {
    const c = conversation();
    const { el, button } = await row(c);
    setTimeout(() => button.click());
    const event = await oneEvent(el, 'heed-select');
    expect(event.detail).to.deep.equal({ conversationId: c.id });
    expect(event.composed && event.bubbles).to.be.true;
  });

  it('shows waiting for a person with its own icon, colour and text, below unviewed, and no dot', async () => {
    const { button, look, el } = await row(conversation({ waitingForPerson: true, updatedAt: '2026-01-01T09:00:00Z' }));
    expect(button.dataset.state).to.equal('waiting');
    expect(button.textContent).to.contain('Waiting for a person');
    expect(button.textContent).to.not.contain('3 hours ago');
    expect(look('.dot').display).to.equal('none');
    expect(look('.status').color).to.equal('rgb(102, 57, 186)');
    expect(look('.row').borderInlineStartColor).to.equal('rgb(102, 57, 186)');
    const others = await Promise.all([conversation(), conversation(replied), conversation({ live: true })].map((c) => row(c)));
    const icon = el.shadowRoot!.querySelector('svg')!.innerHTML;
    for (const other of others) expect(other.el.shadowRoot!.querySelector('svg')!.innerHTML).to.not.equal(icon);
    // an unread message still shows first: the one unread predicate is never hidden by a calmer state
    expect((await row(conversation({ waitingForPerson: true, ...replied }))).button.dataset.state).to.equal('unviewed');
    expect((await row(conversation({ waitingForPerson: true, live: true }))).button.dataset.state).to.equal('live');
    await expect(el).shadowDom.to.be.accessible();
  });

  it('is accessible', async () => {
    const { el } = await row(conversation({ inputNeeded: true }));
    await expect(el).shadowDom.to.be.accessible();
  });
});
