/// <reference types="mocha" />
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../console-app/console-app.ts';
import type { HeedConsoleApp } from '../console-app/console-app.component.ts';
import type { ConversationItem } from '../state/contract.ts';
import { fakeConsoleApi, item, owner, transcript } from '../test-support/fake-console-api.ts';

const soon = (seconds: number) => new Date(Date.now() + seconds * 1000).toISOString();

/** The console signed in as the owner, with these conversations waiting when it opens. */
async function consoleWith(waitingAtStart: ConversationItem[] = []) {
  const fake = fakeConsoleApi({
    conversations: async (input) => ({ items: input.filter === 'waiting' ? waitingAtStart : [], nextCursor: null }),
    transcript: async (id) => transcript({ id }),
  });
  const el = await fixture<HeedConsoleApp>(html`<heed-console-app .api=${fake.api}></heed-console-app>`);
  const root = el.shadowRoot!;
  const region = () => root.querySelector('[role=status]')!.textContent;
  const announced: string[] = [];
  el.addEventListener('heed-announce', (e) => announced.push((e as CustomEvent<{ text: string }>).detail.text));
  await waitUntil(() => root.querySelector('nav') && fake.openStreams > 0, 'the console open');
  return { el, root, fake, region, announced };
}

describe('the console’s alerts', () => {
  afterEach(() => {
    history.replaceState(null, '', location.pathname);
    localStorage.removeItem(`heed-console-seen:${owner.id}`);
  });

  it('count what waits already in the tab title, without alerting of it', async () => {
    const old = item({ waitingForPerson: true, waitingSince: '2026-01-01T09:00:00.000Z' });
    const { fake, region } = await consoleWith([old]);
    await waitUntil(() => document.title === '(1) Conversations · Heed console', `title was ${document.title}`);
    expect(fake.callsOf('alertSettings')).to.have.length(1);
    expect(region()).to.not.include('Visitor waiting');
  });

  it('say a visitor is waiting for a person in any view, and count it in the title', async () => {
    const { fake, region } = await consoleWith();
    location.hash = '#/sites';
    await waitUntil(() => document.title === 'Sites · Heed console');
    const c = item({ siteName: 'Shop', title: 'Boots in green', updatedAt: soon(1) });
    fake.emit(c);
    fake.emit({ ...c, waitingForPerson: true, waitingSince: soon(2), updatedAt: soon(2) });
    await waitUntil(() => region() === 'Visitor waiting for a person: Shop — Boots in green', `region said ${region()}`);
    await waitUntil(() => document.title === '(1) Sites · Heed console', `title was ${document.title}`);
    // taken over: it needs nobody any more
    fake.emit({ ...c, waitingForPerson: false, heldBy: { id: 'op-2', name: 'Bea' }, updatedAt: soon(3) });
    await waitUntil(() => document.title === 'Sites · Heed console', `title was ${document.title}`);
  });

  it('tell of a visitor writing in the operator’s conversation, until they open it', async () => {
    // on the list, whose own announcements share the live region: what was sent to it is checked
    const { fake, announced } = await consoleWith();
    const c = item({ siteName: 'Shop', title: 'Returns', assignee: { id: owner.id, name: 'Olive' }, updatedAt: soon(1) });
    fake.emit(c);
    fake.emit({ ...c, lastVisitorAt: soon(2), updatedAt: soon(2) });
    await waitUntil(() => announced.includes('New visitor message: Shop — Returns'), `announced ${announced}`);
    await waitUntil(() => document.title === '(1) Conversations · Heed console', `title was ${document.title}`);
    location.hash = `#/conversations/${c.id}`;
    await waitUntil(() => document.title.includes('Transcript') && !document.title.startsWith('('), `title was ${document.title}`);
    // what the open conversation shows is read: no alert, no count (a later alert shows it was handled)
    fake.emit({ ...c, lastVisitorAt: soon(3), updatedAt: soon(3) });
    fake.emit(item({ siteName: 'Shop', title: 'Later', waitingForPerson: true, waitingSince: soon(4), updatedAt: soon(4) }));
    await waitUntil(() => announced.includes('Visitor waiting for a person: Shop — Later'), `announced ${announced}`);
    expect(announced.filter((t) => t.startsWith('New visitor message'))).to.deep.equal(['New visitor message: Shop — Returns']);
    expect(document.title).to.match(/^\(1\) /);
  });

  it('stop with the sign-out', async () => {
    const { root, fake } = await consoleWith([item({ waitingForPerson: true })]);
    await waitUntil(() => document.title.startsWith('(1)'));
    root.querySelector('nav')!.dispatchEvent(new CustomEvent('heed-signed-out', { bubbles: true, composed: true }));
    await waitUntil(() => document.title === 'Sign in · Heed console', `title was ${document.title}`);
    expect(fake.openStreams).to.equal(0);
  });
});
