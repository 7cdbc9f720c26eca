/// <reference types="mocha" />
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { emulateMedia } from '@web/test-runner-commands';
import './widget.ts';
import '../panel/panel.ts';
import '../unread-badge/unread-badge.ts';
import type { HeedWidget } from './widget.component.ts';
import type { HeedPanel } from '../panel/panel.component.ts';
import { HeedStore } from '../state/store.ts';
import { wireHost } from '../host/wire-host.ts';
import type { HeedCommand } from '../host/host-api.ts';
import { COUNTS_EVENT } from '../host/counts-signal.ts';
import { conversation, deepQueryAll, FakeApi, settle } from '../test-support/fake-api.ts';
import type { AttentionCounts } from '../state/types.ts';

const replied = { lastAssistantAt: '2026-01-01T11:00:00Z' };

async function setup(opts: { queue?: unknown[][]; conversations?: ReturnType<typeof conversation>[] } = {}) {
  const api = new FakeApi({
    conversations: opts.conversations ?? [
      conversation({ ...replied, title: 'Unviewed A' }),
      conversation({ ...replied, title: 'Unviewed B' }),
      conversation({ inputNeeded: true, title: 'Question' }),
      conversation({ title: 'Quiet' }),
    ],
  });
  const store = new HeedStore({ api, siteKey: 'site' });
  const events: AttentionCounts[] = [];
  const onCounts = (e: Event) => events.push((e as CustomEvent<AttentionCounts>).detail);
  window.addEventListener(COUNTS_EVENT, onCounts);
  const [widget, badge] = await fixture<HTMLElement>(
    html`<div><heed-widget></heed-widget><heed-unread-badge></heed-unread-badge></div>`,
  ).then((d) => [d.querySelector('heed-widget')! as HeedWidget, d.querySelector('heed-unread-badge')!] as const);
  widget.store = store;
  const w: { Heed?: HeedCommand } = { Heed: Object.assign(() => {}, { q: opts.queue ?? [] }) };
  const command = wireHost({ store, widget, w });
  await store.start();
  await settle();
  await widget.updateComplete;
  const cleanup = () => window.removeEventListener(COUNTS_EVENT, onCounts);
  return { api, store, widget, badge, events, command, cleanup, w };
}

const launcherButton = (widget: HeedWidget) => widget.shadowRoot!.querySelector('heed-launcher')!.shadowRoot!.querySelector('button')!;
const launcherBadge = (widget: HeedWidget) =>
  widget.shadowRoot!.querySelector('heed-launcher')!.shadowRoot!.querySelector<HTMLElement>('.badge');
const panel = (widget: HeedWidget) => widget.shadowRoot!.querySelector<HeedPanel>('heed-panel');

describe('heed-widget', () => {
  it('shows the same count and state on the launcher badge, the heed:counts event, the host badge and the sidebar rows', async () => {
    const { widget, badge, events, store, api, cleanup } = await setup();
    await widget.show();
    const p = panel(widget)!;
    await p.updateComplete;
    const sidebar = p.shadowRoot!.querySelector('heed-sidebar')!;
    await sidebar.updateComplete;
    const rows = [...sidebar.shadowRoot!.querySelectorAll('heed-conversation-row')];
    await Promise.all(rows.map((r) => r.updateComplete));
    const rowStates = rows.map((r) => r.shadowRoot!.querySelector('button')!.dataset.state);
    const fromRows = {
      unread: rowStates.filter((s) => s === 'unviewed').length,
      live: rowStates.filter((s) => s === 'live').length,
      inputNeeded: rowStates.filter((s) => s === 'input_needed').length,
    };
    expect(events.at(-1)).to.deep.equal(fromRows);
    expect(fromRows).to.deep.equal({ unread: 2, live: 0, inputNeeded: 1 });
    // input needed outranks unviewed: the badges count that state
    expect(launcherBadge(widget)!.textContent).to.equal('1');
    expect(launcherBadge(widget)!.dataset.state).to.equal('input_needed');
    const hostBadge = badge.shadowRoot!.querySelector<HTMLElement>('[part="badge"]')!;
    expect(hostBadge.dataset.state).to.equal('input_needed');
    expect(hostBadge.textContent).to.contain('1');

    // a reply goes live: every surface follows, in the live colour
    const live = { ...store.state.conversations[3]!, live: true, updatedAt: '2026-01-01T12:00:00Z' };
    api.emit({ type: 'conversation.updated', conversationId: live.id, conversation: live });
    await widget.updateComplete;
    await widget.shadowRoot!.querySelector('heed-launcher')!.updateComplete;
    await (badge as HTMLElement & { updateComplete: Promise<unknown> }).updateComplete;
    expect(events.at(-1)).to.deep.equal({ unread: 2, live: 1, inputNeeded: 1 });
    expect(launcherBadge(widget)!.dataset.state).to.equal('live');
    expect(badge.shadowRoot!.querySelector<HTMLElement>('[part="badge"]')!.dataset.state).to.equal('live');
    cleanup();
  });

  it('pulses both badges while live or input needed, not for unviewed, nor for reduced motion', async () => {
    const pulse = (el: Element) => getComputedStyle(el).animationName;
    const hostPill = (badge: Element) => badge.shadowRoot!.querySelector('[part="badge"]')!;
    const { widget, badge, cleanup } = await setup();
    expect(launcherBadge(widget)!.dataset.state).to.equal('input_needed');
    expect(pulse(launcherBadge(widget)!)).to.equal('heed-pulse');
    expect(pulse(hostPill(badge))).to.equal('heed-pulse');
    await emulateMedia({ reducedMotion: 'reduce' });
    try {
      expect(pulse(launcherBadge(widget)!)).to.equal('none');
      expect(pulse(hostPill(badge))).to.equal('none');
    } finally {
      await emulateMedia({ reducedMotion: 'no-preference' });
    }
    cleanup();
    const quiet = await setup({ conversations: [conversation({ ...replied })] });
    expect(launcherBadge(quiet.widget)!.dataset.state).to.equal('unviewed');
    expect(pulse(launcherBadge(quiet.widget)!)).to.equal('none');
    quiet.cleanup();
  });

  it('shows the live banner from the moment a conversation turns live, with no thread open in inline mode, until the reply is in', async () => {
    const c = conversation({ title: 'Delivery' });
    const { api, widget, store, cleanup } = await setup({ conversations: [c] });
    widget.mode = 'inline';
    // the visitor went home on purpose in this tab: no thread opens by itself
    widget.resumeHome = true;
    await widget.show();
    const p = panel(widget)!;
    await p.updateComplete;
    const banner = () => p.shadowRoot!.querySelector('heed-live-banner')!.shadowRoot!.querySelector('[part="banner"]');
    expect(banner()).to.be.null;
    api.emit({
      type: 'conversation.updated',
      conversationId: c.id,
      conversation: { ...c, live: true, updatedAt: '2026-01-01T11:00:00.000Z' },
    });
    await settle();
    await p.updateComplete;
    expect(p.activeId).to.be.null;
    expect(banner()?.textContent).to.equal('1 live chat receiving replies');
    const done = {
      ...store.conversation(c.id)!,
      live: false,
      lastAssistantAt: '2026-01-01T11:00:01.000Z',
      updatedAt: '2026-01-01T11:00:01.000Z',
    };
    api.emit({ type: 'conversation.updated', conversationId: c.id, conversation: done });
    await settle();
    await p.updateComplete;
    expect(banner()).to.be.null;
    cleanup();
  });

  it('hides both badges when nothing needs attention', async () => {
    const { widget, badge, cleanup } = await setup({ conversations: [conversation()] });
    expect(launcherBadge(widget)).to.be.null;
    expect(badge.hasAttribute('idle')).to.be.true;
    cleanup();
  });

  it('names the launcher "Open chat" / "Close chat", loads the panel on open, and Escape closes and returns focus', async () => {
    const { widget, cleanup } = await setup();
    const button = launcherButton(widget);
    expect(button.textContent!.trim()).to.equal('Open chat');
    expect(panel(widget)).to.be.null; // the panel's code is not needed until open
    button.click();
    await waitUntil(() => panel(widget) && !panel(widget)!.hidden);
    await widget.shadowRoot!.querySelector('heed-launcher')!.updateComplete;
    expect(launcherButton(widget).textContent!.trim()).to.equal('Close chat');
    panel(widget)!
      .shadowRoot!.querySelector('.panel')!
      .dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, composed: true }));
    await widget.updateComplete;
    expect(widget.open).to.be.false;
    expect(panel(widget)!.hidden).to.be.true;
    cleanup();
  });

  for (const width of [900, 400]) {
    it(`has exactly one aria-live region in the whole widget at ${width} px`, async () => {
      const { widget, cleanup } = await setup();
      await widget.show();
      const p = panel(widget)!;
      p.layout = width < 640 ? 'narrow' : 'wide';
      await p.updateComplete;
      const regions = deepQueryAll(widget.shadowRoot!, '[aria-live], [role="status"], [role="log"], [role="alert"]');
      expect(regions).to.have.length(1);
      expect(regions[0]!.closest('[part=heading]')).to.exist; // the heading's status
      cleanup();
    });
  }

  it('replays host commands queued before load and calls host listeners', async () => {
    const seen: unknown[] = [];
    const { widget, w, cleanup } = await setup({ queue: [['on', 'open', () => seen.push('open')], ['open']] });
    await waitUntil(() => widget.open);
    expect(seen).to.deep.equal(['open']);
    const counts: unknown[] = [];
    w.Heed!('on', 'unread', (c: unknown) => counts.push(c));
    w.Heed!('close');
    expect(widget.open).to.be.false;
    cleanup();
  });

  it('passes axe with the panel open', async () => {
    const { widget, cleanup } = await setup();
    await widget.show();
    await panel(widget)!.updateComplete;
    await expect(widget).shadowDom.to.be.accessible();
    await expect(panel(widget)!).shadowDom.to.be.accessible();
    cleanup();
  });
});
