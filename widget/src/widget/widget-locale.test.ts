/// <reference types="mocha" />
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { setViewport } from '@web/test-runner-commands';
import './widget.ts';
import '../panel/panel.ts';
import type { HeedWidget } from './widget.component.ts';
import type { HeedPanel } from '../panel/panel.component.ts';
import { HeedStore } from '../state/store.ts';
import { useLocale } from '../i18n/i18n.ts';
import { conversation, FakeApi, message, settle } from '../test-support/fake-api.ts';

/** A language's strings are a lazy chunk: on a loaded machine its first fetch can take longer than waitUntil's 1 s default. */
const LOCALE_LOAD = { timeout: 5000 };

const REPLY = 'Your order left the warehouse this morning and should arrive on Thursday.';

/** A widget with `attrs` on its element, a conversation of one visitor message and one reply. */
async function setup(attrs: Record<string, string>) {
  const c = conversation({ title: 'Delivery', lastAssistantAt: '2026-01-01T11:00:00.000Z', lastReadAt: '2026-01-01T11:00:00.000Z' });
  const api = new FakeApi({ conversations: [c] });
  api.messages.set(c.id, [
    message({ conversationId: c.id, role: 'user', content: 'Where is my order?', createdAt: '2026-01-01T10:59:00.000Z' }),
    message({ conversationId: c.id, content: REPLY, createdAt: '2026-01-01T11:00:00.000Z' }),
  ]);
  const store = new HeedStore({ api, siteKey: 'site' });
  const host = await fixture<HTMLElement>(html`<div></div>`);
  const widget = document.createElement('heed-widget');
  for (const [k, v] of Object.entries(attrs)) widget.setAttribute(k, v);
  widget.store = store;
  host.append(widget);
  await store.start();
  await settle();
  await widget.updateComplete;
  return { widget, store, c };
}

const shadow = (el: Element | null | undefined) => el!.shadowRoot!;
const launcher = (w: HeedWidget) => shadow(w).querySelector('heed-launcher')!;
const launcherName = (w: HeedWidget) => shadow(launcher(w)).querySelector('button')!.textContent!.trim();
const panel = (w: HeedWidget) => shadow(w).querySelector<HeedPanel>('heed-panel')!;
const inPanel = (w: HeedWidget, path: string[]) => path.reduce<Element>((el, sel) => (el.shadowRoot ?? el).querySelector(sel)!, panel(w));
const box = (el: Element) => el.getBoundingClientRect();

async function openThread(w: HeedWidget, conversationId: string) {
  await w.show();
  const p = panel(w);
  await p.openConversation(conversationId);
  await waitUntil(() => inPanel(w, ['heed-message-list', '.user']));
  await settle();
}

describe('heed-widget languages', () => {
  afterEach(async () => {
    await useLocale({ bundle: 'en', tag: 'en', dir: 'ltr' });
    await setViewport({ width: 800, height: 600 });
  });

  it('speaks the language of its locale attribute, from the launcher to the composer, and sets lang', async () => {
    const { widget, c } = await setup({ locale: 'de' });
    expect([widget.lang, widget.dir]).to.deep.equal(['de', 'ltr']);
    await waitUntil(() => launcherName(widget) === 'Chat öffnen', 'the locale chunk loads', LOCALE_LOAD);
    await openThread(widget, c.id);
    expect(inPanel(widget, ['.panel']).getAttribute('aria-label')).to.equal('Chat');
    expect(inPanel(widget, ['heed-composer', 'button']).textContent!.trim()).to.equal('Senden');
    expect(inPanel(widget, ['heed-composer', 'textarea']).getAttribute('aria-label')).to.equal('Nachricht');
    expect(inPanel(widget, ['heed-sidebar', 'h2']).textContent).to.equal('Unterhaltungen');
    expect(inPanel(widget, ['heed-heading', '.rename']).textContent!.trim()).to.equal('Unterhaltung umbenennen');
    expect(launcherName(widget)).to.equal('Chat schließen');
  });

  it('reads data-locale on the element as well, keeps the region for dates, and follows a change of locale', async () => {
    const { widget } = await setup({ 'data-locale': 'pt-BR' });
    await waitUntil(() => launcherName(widget) === 'Abrir chat', 'the locale chunk loads', LOCALE_LOAD);
    expect(widget.lang).to.equal('pt-BR');
    widget.locale = 'es';
    await waitUntil(() => launcherName(widget) === 'Abrir chat' && widget.lang === 'es', 'the locale chunk loads', LOCALE_LOAD);
    widget.locale = 'ja';
    await waitUntil(() => launcherName(widget) === 'チャットを開く', 'the locale chunk loads', LOCALE_LOAD);
  });

  it('stays English for a language it has no strings for (the test browser asks for en-US)', async () => {
    const { widget } = await setup({ locale: 'ko' });
    await settle();
    expect([navigator.language, widget.lang, widget.dir, launcherName(widget)]).to.deep.equal(['en-US', 'en-US', 'ltr', 'Open chat']);
  });

  it('keeps a dir the page put on the element: an English widget can be mirrored, an Arabic one kept left to right', async () => {
    const english = await setup({ dir: 'rtl' });
    expect(english.widget.dir).to.equal('rtl');
    expect(getComputedStyle(english.widget).direction).to.equal('rtl');
    const arabic = await setup({ locale: 'ar', dir: 'ltr' });
    expect(arabic.widget.dir).to.equal('ltr');
    await waitUntil(() => launcherName(arabic.widget) === 'فتح المحادثة', 'the locale chunk loads', LOCALE_LOAD);
  });

  for (const [width, height] of [
    [1280, 800],
    [375, 700],
  ] as const) {
    for (const how of ['locale="he"', 'dir="rtl"', 'left to right'] as const) {
      it(`mirrors launcher, panel, sidebar, bubbles, composer and pointing icons at ${width} px (${how})`, async () => {
        await setViewport({ width, height });
        const attrs: Record<string, string> = how === 'locale="he"' ? { locale: 'he' } : how === 'dir="rtl"' ? { dir: 'rtl' } : {};
        const rtl = how !== 'left to right';
        const { widget, c } = await setup(attrs);
        expect(widget.dir).to.equal(rtl ? 'rtl' : 'ltr');
        /** distance of a box from the viewport's start edge (left in LTR, right in RTL) */
        const fromStart = (r: DOMRect) => (rtl ? width - r.right : r.left);
        const fromEnd = (r: DOMRect) => (rtl ? r.left : width - r.right);

        // the launcher sits in the end corner; its badge on its end-top corner
        const button = box(shadow(launcher(widget)).querySelector('button')!);
        expect(Math.round(fromEnd(button))).to.equal(20);
        expect(Math.round(height - button.bottom)).to.equal(20);

        await openThread(widget, c.id);
        const list = box(inPanel(widget, ['heed-message-list']));
        const user = box(inPanel(widget, ['heed-message-list', '.user']));
        const reply = box(inPanel(widget, ['heed-message-list', '.assistant']));
        // the reply starts at the start edge of the thread, the visitor's bubble at its end
        expect(Math.round(fromStart(reply) - fromStart(list))).to.equal(12);
        expect(Math.round(fromEnd(user) - fromEnd(list))).to.equal(12);
        // the reply's text begins at the start edge of its own direction (each message is dir="auto":
        // this English reply reads left to right in a right-to-left widget): the bubble's padding away
        const range = document.createRange();
        range.selectNodeContents(inPanel(widget, ['heed-message-list', '.assistant .md p']));
        const firstLine = range.getClientRects()[0]!;
        expect(getComputedStyle(inPanel(widget, ['heed-message-list', '.assistant'])).direction).to.equal('ltr');
        expect(Math.round(firstLine.left - reply.left)).to.equal(12);
        // the send button follows the textbox in reading order: to its left in RTL
        const textarea = box(inPanel(widget, ['heed-composer', 'textarea']));
        const send = box(inPanel(widget, ['heed-composer', 'button']));
        expect(rtl ? send.right <= textarea.left : send.left >= textarea.right).to.be.true;
        expect(getComputedStyle(inPanel(widget, ['heed-composer', 'textarea'])).direction).to.equal(rtl ? 'rtl' : 'ltr');
        const mirrored = (el: Element) => getComputedStyle(el).transform === 'matrix(-1, 0, 0, 1, 0, 0)';
        expect(mirrored(inPanel(widget, ['heed-composer', 'button svg']))).to.equal(rtl);

        const p = panel(widget);
        if (width > 640) {
          // the floating panel hangs from the end corner; the sidebar is on its start side
          expect(Math.round(fromEnd(box(p)))).to.equal(20);
          const sidebar = box(inPanel(widget, ['heed-sidebar']));
          const main = box(inPanel(widget, ['.main']));
          expect(fromStart(sidebar)).to.be.below(fromStart(main));
          expect(mirrored(inPanel(widget, ['heed-sidebar', '.toggle svg']))).to.equal(rtl);
        } else {
          // full screen; the drawer slides in from the start edge, its shadow on its far side
          expect(box(p)).to.include({ left: 0, top: 0, width, height });
          await waitUntil(() => p.currentLayout === 'narrow');
          await p.updateComplete;
          inPanel(widget, ['heed-heading']).querySelector<HTMLButtonElement>('button[slot="start"]')!.click();
          await p.updateComplete;
          const drawer = inPanel(widget, ['heed-sidebar.drawer']);
          expect(Math.round(fromStart(box(drawer)))).to.equal(0);
          expect(getComputedStyle(drawer).boxShadow).to.match(rtl ? /\) -4px 0px 16px/ : /\) 4px 0px 16px/);
        }
      });
    }
  }
});
