/// <reference types="mocha" />
import { expect, fixture, html } from '@open-wc/testing';
import '../composer/composer.ts';
import '../conversation-row/conversation-row.ts';
import type { HeedComposer } from '../composer/composer.component.ts';
import type { HeedConversationRow } from '../conversation-row/conversation-row.component.ts';
import { conversation } from '../test-support/fake-api.ts';
import { lang, t, useLocale } from './i18n.ts';
import { pickLocale } from './pick-locale.ts';

const AVAILABLE = ['ar', 'de', 'es', 'fr', 'he', 'ja', 'pt'];
const choose = (tag: string) => useLocale(pickLocale([tag], AVAILABLE));
/** The language files this page has fetched so far. */
const fetchedLocales = () =>
  performance
    .getEntriesByType('resource')
    .map((e) => /\/i18n\/locales\/(\w+)\.ts/.exec(e.name)?.[1])
    .filter(Boolean);
const NOW = Date.parse('2026-01-01T12:00:00Z');

describe('i18n', () => {
  afterEach(() => choose('en'));

  it("loads a language's strings only when a visitor needs them, as a module of their own", async () => {
    expect(t.send).to.equal('Send');
    expect(fetchedLocales()).to.not.include('de');
    await choose('de-CH');
    expect(fetchedLocales()).to.include('de');
    expect(fetchedLocales()).to.not.include('fr');
    expect([t.send, t.openChat, t.openTasks(2), t.status.reconnecting]).to.deep.equal([
      'Senden',
      'Chat öffnen',
      'Offene Aufgaben (2)',
      'Verbindung wird wiederhergestellt…',
    ]);
    expect(lang).to.equal('de-CH');
    await choose('en-US');
    expect([t.send, lang]).to.deep.equal(['Send', 'en-US']);
  });

  it('re-renders the elements on screen in the new language, accessible names included', async () => {
    const composer = await fixture<HeedComposer>(html`<heed-composer></heed-composer>`);
    const names = () => {
      const root = composer.shadowRoot!;
      return [
        root.querySelector('textarea')!.getAttribute('aria-label'),
        root.querySelector('textarea')!.placeholder,
        root.querySelector('button')!.textContent!.trim(),
      ];
    };
    expect(names()).to.deep.equal(['Message', 'Write a message…', 'Send']);
    await choose('fr');
    await composer.updateComplete;
    expect(names()).to.deep.equal(['Message', 'Écrivez un message…', 'Envoyer']);
    await choose('ja');
    await composer.updateComplete;
    expect(names()).to.deep.equal(['メッセージ', 'メッセージを入力…', '送信']);
  });

  it('keeps the newest choice when an older one arrives later', async () => {
    const older = choose('es');
    const newer = choose('pt-BR');
    await Promise.all([older, newer]);
    expect([t.send, t.newConversation, lang]).to.deep.equal(['Enviar', 'Nova conversa', 'pt-BR']);
  });

  it('says relative times and dates through Intl in the chosen language', async () => {
    const rows = await fixture<HTMLElement>(html`<div>
      <heed-conversation-row .conversation=${conversation({ updatedAt: '2026-01-01T09:00:00Z' })} .now=${NOW}></heed-conversation-row>
      <heed-conversation-row .conversation=${conversation({ updatedAt: '2025-12-31T10:00:00Z' })} .now=${NOW}></heed-conversation-row>
      <heed-conversation-row .conversation=${conversation({ updatedAt: '2025-11-15T10:00:00Z' })} .now=${NOW}></heed-conversation-row>
      <heed-conversation-row .conversation=${conversation({ updatedAt: '2025-12-31T10:00:00Z', live: true })} .now=${NOW}></heed-conversation-row>
    </div>`);
    const statuses = async () => {
      const all = [...rows.querySelectorAll<HeedConversationRow>('heed-conversation-row')];
      await Promise.all(all.map((r) => r.updateComplete));
      return all.map((r) =>
        r
          .shadowRoot!.querySelector('[part="status"]')!
          .textContent!.replace(/^\s*(, |、|، )/, '')
          .trim(),
      );
    };
    expect(await statuses()).to.deep.equal(['3 hours ago', 'yesterday', 'Nov 15, 2025', 'Live']);
    await choose('de');
    expect(await statuses()).to.deep.equal(['vor 3 Stunden', 'gestern', '15. Nov. 2025', 'Live']);
    await choose('ja');
    expect(await statuses()).to.deep.equal(['3 時間前', '昨日', '2025年11月15日', 'ライブ']);
    await choose('ar');
    expect(await statuses()).to.deep.equal([
      new Intl.RelativeTimeFormat('ar', { numeric: 'auto' }).format(-3, 'hour'),
      'أمس',
      new Intl.DateTimeFormat('ar', { day: 'numeric', month: 'short', year: 'numeric' }).format(Date.parse('2025-11-15T10:00:00Z')),
      'مباشر',
    ]);
  });
});
