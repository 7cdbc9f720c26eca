/// <reference types="mocha" />
import { expect, waitUntil } from '@open-wc/testing';
import { HeedStore } from '../state/store.ts';
import { FakeApi } from '../test-support/fake-api.ts';
import { arrival, arrivalOf } from '../state/arrival.ts';
import { followPages } from './page-reports.ts';
import { watchPage, type PageWatch, type WatchedPage } from './page-watch.ts';

/** Never, within a test: the poll is off unless a test turns it on. */
const NO_POLL = 10 ** 9;

describe('watchPage', () => {
  const start = { url: location.href, title: document.title };
  let reports: WatchedPage[];
  let watch: PageWatch | null;
  const report = async (page: WatchedPage) => void reports.push(page);
  const here = (path: string) => new URL(path, location.href).href;

  beforeEach(() => {
    reports = [];
    watch = null;
    document.title = 'Boots';
  });
  afterEach(() => {
    watch?.stop();
    history.replaceState(null, '', start.url);
    document.title = start.title;
  });

  it('reports the page on load, then a pushState of an SPA, with the title it set after the push', async () => {
    watch = watchPage({ report, settleMs: 30, pollMs: NO_POLL });
    await waitUntil(() => reports.length === 1);
    expect(reports[0]).to.deep.equal({ url: location.href, title: 'Boots' });
    history.pushState(null, '', '/pages/pricing');
    document.title = 'Pricing';
    // no poll here: Chromium's Navigation API tells of the push itself
    await waitUntil(() => reports.length === 2, 'the push was noticed');
    expect(reports[1]).to.deep.equal({ url: here('/pages/pricing'), title: 'Pricing' });
  });

  it('a burst of pushes is one report of where the visitor ended up; the same page is never reported twice in a row', async () => {
    watch = watchPage({ report, settleMs: 30, pollMs: NO_POLL });
    await waitUntil(() => reports.length === 1);
    history.pushState(null, '', '/a');
    history.pushState(null, '', '/b');
    history.replaceState(null, '', '/c');
    await waitUntil(() => reports.length === 2);
    // back and forth to the same page, then a real change: only the change is reported
    history.pushState(null, '', '/c');
    history.pushState(null, '', '/d');
    await waitUntil(() => reports.length === 3);
    expect(reports.map((r) => r.url)).to.deep.equal([start.url, here('/c'), here('/d')]);
  });

  it('hash routes and the back button are noticed; a title changed later is found by the poll, without the unread prefix', async () => {
    watch = watchPage({ report, settleMs: 30, pollMs: NO_POLL });
    await waitUntil(() => reports.length === 1);
    location.hash = '#/orders/42';
    await waitUntil(() => reports.length === 2, 'hashchange');
    history.back();
    await waitUntil(() => reports.length === 3, 'popstate');
    expect(reports.map((r) => r.url)).to.deep.equal([start.url, here('#/orders/42'), start.url]);
    watch.stop();

    watch = watchPage({ report, settleMs: 30, pollMs: 20 });
    await waitUntil(() => reports.length === 4);
    document.title = '(3) Order 42 · Shop';
    await waitUntil(() => reports.length === 5, 'the poll saw the title');
    expect(reports[4]).to.deep.equal({ url: start.url, title: 'Order 42 · Shop' });
  });

  it('a refused report waits for the time the server gave, then sends the page the visitor is on by then', async () => {
    const tries: WatchedPage[] = [];
    let refuse = true;
    watch = watchPage({
      settleMs: 10,
      pollMs: 20,
      report: async (page) => {
        tries.push(page);
        if (refuse) throw Object.assign(new Error('Too many requests'), { data: { code: 'TOO_MANY_REQUESTS', retryAfterMs: 300 } });
        reports.push(page);
      },
    });
    await waitUntil(() => tries.length === 1);
    refuse = false;
    history.pushState(null, '', '/after-the-wait');
    await waitUntil(() => reports.length === 1, 'sent after the wait', { timeout: 5_000 });
    // held while it waited: no try in between, however often the poll looked
    expect(tries.map((t) => t.url)).to.deep.equal([start.url, here('/after-the-wait')]);
  });

  it('reset reports the same page again (a new visitor after identify), and a stopped watch reports nothing more', async () => {
    watch = watchPage({ report, settleMs: 10, pollMs: NO_POLL });
    await waitUntil(() => reports.length === 1);
    watch.reset();
    await waitUntil(() => reports.length === 2);
    expect(reports[1]).to.deep.equal(reports[0]);
    watch.stop();
    history.pushState(null, '', '/after-stop');
    // a second watch sees the push; the stopped one never reported it
    const other: WatchedPage[] = [];
    const second = watchPage({ report: async (p) => void other.push(p), settleMs: 10, pollMs: NO_POLL });
    await waitUntil(() => other.length === 1);
    second.stop();
    expect(reports).to.have.length(2);
  });
});

describe('followPages', () => {
  it('reports pages only for a site that shares them, and again for the new visitor after identify', async () => {
    const sharing = new FakeApi({ site: { shareVisitorPages: true } });
    const quiet = new FakeApi({ site: { shareVisitorPages: false } });
    const stores = [sharing, quiet].map((api) => new HeedStore({ api, siteKey: 'site' }));
    for (const store of stores) followPages(store);
    await Promise.all(stores.map((s) => s.start()));
    await waitUntil(() => sharing.callsOf('reportPage').length === 1, 'reported on load', { timeout: 5_000 });
    expect(sharing.callsOf('reportPage')[0]).to.deep.equal([{ url: location.href, title: document.title }]);
    // started together: by the time one reported, the other would have too
    expect(quiet.callsOf('reportPage')).to.deep.equal([]);

    // identify: a new visitor, whose row has no page yet
    const start = sharing.startSession.bind(sharing);
    sharing.startSession = async (input) => ({ ...(await start(input)), visitorId: 'v2' });
    stores[0]!.identify({ userId: 'user-1', token: 'jwt' });
    await waitUntil(() => sharing.callsOf('reportPage').length === 2, 'reported for the new visitor', { timeout: 5_000 });
    for (const store of stores) store.stop();
  });
});

describe('arrival', () => {
  it('says the browser’s language, and the referrer only when another site sent the visitor', () => {
    const shop = 'https://shop.example';
    expect(arrivalOf('https://search.example/?q=boots', 'pt-BR', shop)).to.deep.equal({
      language: 'pt-BR',
      referrer: 'https://search.example/?q=boots',
    });
    expect(arrivalOf('https://shop.example/boots', 'de', shop)).to.deep.equal({ language: 'de' });
    for (const odd of ['', 'not a url', 'android-app://com.example', `https://long.example/${'x'.repeat(2000)}`])
      expect(arrivalOf(odd, 'en', shop)).to.deep.equal({ language: 'en' });
    expect(arrival().language).to.equal(navigator.language);
  });
});
