/// <reference types="mocha" />
import { expect, waitUntil } from '@open-wc/testing';
import { HeedStore } from './store.ts';
import { ThreadSync } from './thread-sync.ts';
import type { StoredSend } from './outbox-storage.ts';
import { attachment, conversation, FakeApi, message, settle } from '../test-support/fake-api.ts';

const KEY = 'heed:outbox:test@https://chat.example/';

/** A page of the site: its own API client and store, the outbox under the shared key. */
async function page(api: FakeApi) {
  const store = new HeedStore({ api, siteKey: 'test', tokens: { read: () => undefined, write: () => {} }, outboxKey: KEY });
  await store.start();
  await settle();
  return store;
}

/** The fake's session is visitor `visitorId`'s. */
function asVisitor(api: FakeApi, visitorId: string) {
  const start = api.startSession.bind(api);
  api.startSession = async (input) => ({ ...(await start(input)), visitorId });
  return api;
}

const stored = (): StoredSend[] => JSON.parse(localStorage.getItem(KEY) ?? '[]');
const contents = (api: FakeApi) => api.callsOf('send').map(([i]) => (i as { content: string }).content);
const kept = (over: Partial<StoredSend> & Pick<StoredSend, 'conversationId' | 'content'>): StoredSend => ({
  visitorId: 'v1',
  clientMessageId: crypto.randomUUID(),
  createdAt: '2026-01-01T10:00:00.000Z',
  ...over,
});

/** Makes the fake's sends wait until the returned function is called (a slow network). */
function holdSends(api: FakeApi): () => void {
  let release = () => {};
  api.hold = new Promise<void>((r) => (release = r));
  return () => {
    api.hold = null;
    release();
  };
}

describe('ThreadSync outbox across reloads and tabs', () => {
  beforeEach(() => localStorage.removeItem(KEY));
  afterEach(() => localStorage.removeItem(KEY));

  it('keeps sends made offline through a reload, shows them pending, and delivers each once, in order', async () => {
    const c = conversation();
    const before = new FakeApi({ conversations: [c] });
    const first = await page(before);
    const threads = new ThreadSync(first);
    threads.open(c.id);
    before.offline = true;
    threads.send(c.id, 'one');
    await waitUntil(() => first.state.connection === 'offline', 'the send found the network down');
    threads.send(c.id, 'two');
    expect(stored().map((s) => s.content)).to.deep.equal(['one', 'two']);
    expect(first.unsent()).to.be.false; // kept: nothing to warn about on unload
    first.stop();

    const after = new FakeApi({ conversations: [c] });
    const release = holdSends(after);
    const second = await page(after);
    const reloaded = new ThreadSync(second);
    await reloaded.load(c.id);
    expect(second.state.threads.get(c.id)!.map((m) => [m.content, m.pending])).to.deep.equal([
      ['one', true],
      ['two', true],
    ]);
    release();
    await waitUntil(() => reloaded.queued === 0, 'the kept sends are delivered', { timeout: 2000 });
    expect(contents(after)).to.deep.equal(['one', 'two']);
    expect(second.state.threads.get(c.id)!.map((m) => [m.content, !!m.pending])).to.deep.equal([
      ['one', false],
      ['two', false],
    ]);
    expect(localStorage.getItem(KEY)).to.equal(null);
    second.stop();
  });

  it('keeps a send with files through a reload: the pending copy shows them, and it goes out with their ids', async () => {
    const c = conversation();
    const files = [attachment({ name: 'error.png' }), attachment({ name: 'log.txt', mime: 'text/plain' })];
    const before = new FakeApi({ conversations: [c] });
    const first = await page(before);
    const threads = new ThreadSync(first);
    threads.open(c.id);
    before.offline = true;
    threads.send(c.id, '', undefined, files);
    expect(first.state.threads.get(c.id)![0]!.attachments, 'shown at once').to.deep.equal(files);
    await waitUntil(() => first.state.connection === 'offline', 'the send found the network down');
    expect(stored()[0]!.attachments).to.deep.equal(files);
    first.stop();

    const after = new FakeApi({ conversations: [c] });
    for (const f of files) after.uploaded.set(f.id, f);
    const release = holdSends(after);
    const second = await page(after);
    const reloaded = new ThreadSync(second);
    await reloaded.load(c.id);
    const pending = second.state.threads.get(c.id)!;
    expect(pending.map((m) => [m.content, m.pending, m.attachments?.map((a) => a.name)])).to.deep.equal([
      ['', true, ['error.png', 'log.txt']],
    ]);
    release();
    await waitUntil(() => reloaded.queued === 0, 'the kept send is delivered', { timeout: 2000 });
    const [input] = after.callsOf('send')[0]! as [{ content: string; attachmentIds: string[] }];
    expect(input.attachmentIds).to.deep.equal(files.map((f) => f.id));
    expect(second.state.threads.get(c.id)!.map((m) => [!!m.pending, m.attachments?.length])).to.deep.equal([[false, 2]]);
    second.stop();
  });

  it('delivers a kept send once when two tabs hold it', async () => {
    const c = conversation();
    const send = kept({ conversationId: c.id, content: 'only once' });
    localStorage.setItem(KEY, JSON.stringify([send]));
    const apis = [new FakeApi({ conversations: [c] }), new FakeApi({ conversations: [c] })];
    const releases = apis.map(holdSends);
    const stores = await Promise.all(apis.map(page));
    const tabs = stores.map((s) => new ThreadSync(s));
    await Promise.all(tabs.map((t) => t.load(c.id)));
    releases.forEach((r) => r());
    await waitUntil(() => tabs.every((t) => t.queued === 0), 'both tabs see the queue empty', { timeout: 2000 });
    expect([...contents(apis[0]!), ...contents(apis[1]!)]).to.deep.equal(['only once']);

    // the tab that did not send shows the message once, when the stream brings it
    const idle = contents(apis[0]!).length === 0 ? 0 : 1;
    apis[idle]!.emit({
      type: 'message.created',
      conversationId: c.id,
      message: message({ conversationId: c.id, role: 'user', content: 'only once', clientMessageId: send.clientMessageId }),
    } as never);
    expect(stores[idle]!.state.threads.get(c.id)!.map((m) => [m.content, !!m.pending])).to.deep.equal([['only once', false]]);
    stores.forEach((s) => s.stop());
  });

  it('leaves another visitor’s kept sends alone, for that visitor’s session', async () => {
    const c = conversation();
    localStorage.setItem(KEY, JSON.stringify([kept({ conversationId: c.id, content: 'theirs', visitorId: 'v0' })]));
    const other = new FakeApi({ conversations: [c] });
    const store = await page(other);
    const threads = new ThreadSync(store);
    await threads.load(c.id);
    await settle();
    expect(contents(other)).to.deep.equal([]);
    expect(store.state.threads.get(c.id)).to.deep.equal([]);
    expect(stored().map((s) => s.content)).to.deep.equal(['theirs']);
    store.stop();

    const owner = asVisitor(new FakeApi({ conversations: [c] }), 'v0');
    const theirs = await page(owner);
    const delivering = new ThreadSync(theirs);
    await waitUntil(() => delivering.queued === 0, 'delivered by its visitor', { timeout: 2000 });
    expect(contents(owner)).to.deep.equal(['theirs']);
    theirs.stop();
  });

  it('keeps sends in memory, and warns on unload, when storage is unavailable', async () => {
    const original = { get: Storage.prototype.getItem, set: Storage.prototype.setItem };
    const refuse = () => {
      throw new DOMException('The operation is insecure.', 'SecurityError');
    };
    Storage.prototype.getItem = refuse;
    Storage.prototype.setItem = refuse;
    try {
      const c = conversation();
      const api = new FakeApi({ conversations: [c] });
      const store = await page(api);
      const threads = new ThreadSync(store);
      threads.open(c.id);
      api.offline = true;
      threads.send(c.id, 'fragile');
      await waitUntil(() => store.state.connection === 'offline', 'the send found the network down');
      expect(store.unsent()).to.be.true;
      const unload = new Event('beforeunload', { cancelable: true });
      addEventListener('beforeunload', (e) => store.unsent() && e.preventDefault(), { once: true });
      dispatchEvent(unload);
      expect(unload.defaultPrevented).to.be.true;

      api.offline = false;
      dispatchEvent(new Event('online'));
      await waitUntil(() => !store.unsent(), 'delivered from memory', { timeout: 2000 });
      expect(contents(api)).to.deep.equal(['fragile', 'fragile']);
      store.stop();
    } finally {
      Storage.prototype.getItem = original.get;
      Storage.prototype.setItem = original.set;
    }
  });
});
