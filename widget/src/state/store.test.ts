/// <reference types="mocha" />
import { expect } from '@open-wc/testing';
import { HeedStore } from './store.ts';
import { ThreadSync } from './thread-sync.ts';
import { conversation, FakeApi, message, settle } from '../test-support/fake-api.ts';

async function started(api: FakeApi) {
  const store = new HeedStore({ api, siteKey: 'site', tokens: { read: () => undefined, write: () => {} } });
  await store.start();
  await settle();
  return store;
}

describe('HeedStore', () => {
  it('subscribes from the cursor of the conversation list', async () => {
    const api = new FakeApi({ conversations: [conversation()] });
    const store = await started(api);
    expect(api.callsOf('subscribe')).to.deep.equal([['7']]);
    expect(store.state.connection).to.equal('connected');
    expect(store.state.ready).to.be.true;
    store.stop();
  });

  it('streams a reply from deltas and snapshots, dropping repeats and trimming overlap', async () => {
    const c = conversation({ live: true, liveRunId: 'r1' });
    const api = new FakeApi({ conversations: [c] });
    const store = await started(api);
    const base = { conversationId: c.id, runId: 'r1' };
    api.emit({ type: 'reply.delta', ...base, offset: 0, text: 'Hel' });
    api.emit({ type: 'reply.delta', ...base, offset: 0, text: 'Hel' });
    api.emit({ type: 'reply.delta', ...base, offset: 1, text: 'ello' });
    expect(store.state.replies.get(c.id)?.text).to.equal('Hello');
    api.emit({ type: 'reply.delta', ...base, offset: 9, text: 'gap' });
    expect(store.state.replies.get(c.id)?.text).to.equal('Hello');
    api.emit({ type: 'reply.snapshot', ...base, text: 'Hello, wor' });
    api.emit({ type: 'reply.delta', ...base, offset: 10, text: 'ld' });
    expect(store.state.replies.get(c.id)?.text).to.equal('Hello, world');
    store.stop();
  });

  it('never shows text of a run that was taken over (a worker frozen past its lease) or that ended', async () => {
    const c = conversation({ live: true, liveRunId: 'r1' });
    const api = new FakeApi({ conversations: [c] });
    const store = await started(api);
    api.emit({ type: 'reply.delta', conversationId: c.id, runId: 'r1', offset: 0, text: 'Old run ' });
    // r1's lease ran out; r2 took the batch over and streams
    api.emit({ type: 'run.started', conversationId: c.id, runId: 'r2', claimedMessageIds: [] });
    api.emit({ type: 'reply.delta', conversationId: c.id, runId: 'r2', offset: 0, text: 'New' });
    // the frozen worker wakes up and relays what it had buffered
    api.emit({ type: 'reply.delta', conversationId: c.id, runId: 'r1', offset: 8, text: 'stale words' });
    api.emit({ type: 'reply.snapshot', conversationId: c.id, runId: 'r1', text: 'Old run stale words' });
    expect(store.state.replies.get(c.id)).to.include({ runId: 'r2', text: 'New' });

    // joined after a takeover: the server names the live run, another run's text stays out
    const joined = new FakeApi({ conversations: [conversation({ id: c.id, live: true, liveRunId: 'r2' })] });
    const later = await started(joined);
    joined.emit({ type: 'reply.snapshot', conversationId: c.id, runId: 'r2', text: 'New' });
    joined.emit({ type: 'reply.delta', conversationId: c.id, runId: 'r1', offset: 0, text: 'stale' });
    expect(later.state.replies.get(c.id)).to.include({ runId: 'r2', text: 'New' });
    store.stop();
    later.stop();
  });

  it('replaces the streaming text with the stored reply when it completes', async () => {
    const c = conversation({ live: true, liveRunId: 'r1' });
    const api = new FakeApi({ conversations: [c] });
    const store = await started(api);
    await new ThreadSync(store).load(c.id);
    api.emit({ type: 'reply.delta', conversationId: c.id, runId: 'r1', offset: 0, text: 'Hi' });
    const reply = message({ conversationId: c.id, runId: 'r1', content: 'Hi there' });
    api.emit({ type: 'reply.completed', conversationId: c.id, runId: 'r1', message: reply });
    expect(store.state.replies.has(c.id)).to.be.false;
    expect(store.state.threads.get(c.id)?.map((m) => m.content)).to.deep.equal(['Hi there']);
    store.stop();
  });

  it('shows a send at once as pending and replaces it with the acknowledged row', async () => {
    const c = conversation();
    const api = new FakeApi({ conversations: [c] });
    const store = await started(api);
    const threads = new ThreadSync(store);
    const local = threads.send(c.id, 'Hello');
    expect(store.state.threads.get(c.id)?.[0]).to.include({ content: 'Hello', pending: true });
    expect(store.unsent()).to.be.true;
    await settle();
    const [shown] = store.state.threads.get(c.id)!;
    expect(shown!.pending).to.be.undefined;
    expect(shown!.clientMessageId).to.equal(local.clientMessageId);
    expect(store.unsent()).to.be.false;
    store.stop();
  });

  it('queues sends made offline and delivers each once when back online', async () => {
    const c = conversation();
    const api = new FakeApi({ conversations: [c] });
    const store = await started(api);
    const threads = new ThreadSync(store);
    api.offline = true;
    threads.send(c.id, 'one');
    await settle();
    expect(store.state.connection).to.equal('offline');
    threads.send(c.id, 'two');
    await settle();
    expect(api.callsOf('send')).to.have.length(1); // the second waited: we know we are offline
    api.offline = false;
    window.dispatchEvent(new Event('online'));
    window.dispatchEvent(new Event('online'));
    await settle();
    const sent = api
      .callsOf('send')
      .slice(1)
      .map(([i]) => (i as { content: string }).content);
    expect(sent).to.deep.equal(['one', 'two']);
    expect(store.state.threads.get(c.id)?.every((m) => !m.pending)).to.be.true;
    store.stop();
  });

  it('counts attention with the shared rule, a conversation once under its highest state', async () => {
    const api = new FakeApi({
      conversations: [
        conversation({ live: true, lastAssistantAt: '2026-01-01T10:00:00Z' }),
        conversation({ inputNeeded: true }),
        conversation({ lastAssistantAt: '2026-01-01T10:00:00Z' }),
        conversation({ lastAssistantAt: '2026-01-01T10:00:00Z', lastReadAt: '2026-01-01T10:00:00Z' }),
      ],
    });
    const store = await started(api);
    expect(store.counts).to.deep.equal({ unread: 1, live: 1, inputNeeded: 1 });
    store.stop();
  });

  it('acknowledges input needed when the question is marked read, at once, and keeps the question open', async () => {
    const asked = '2026-01-01T10:00:00.000Z';
    const c = conversation({ inputNeeded: true, lastAssistantAt: asked, updatedAt: asked });
    const api = new FakeApi({ conversations: [c] });
    const store = await started(api);
    expect(store.counts).to.deep.equal({ unread: 0, live: 0, inputNeeded: 1 });
    const marking = store.markRead(c.id, asked);
    expect(store.counts).to.deep.equal({ unread: 0, live: 0, inputNeeded: 0 }); // before the server answers
    await marking;
    expect(store.counts.inputNeeded).to.equal(0);
    expect(store.conversation(c.id)!.inputRequest).to.deep.include({ createdAt: asked });
    store.stop();
  });

  it('keeps the read marker moving forward when an older view arrives', async () => {
    const c = conversation({ lastAssistantAt: '2026-01-01T10:00:00Z' });
    const api = new FakeApi({ conversations: [c] });
    const store = await started(api);
    const marking = store.markRead(c.id, '2026-01-01T10:00:00Z');
    expect(store.counts.unread).to.equal(0); // at once, before the server answers
    api.emit({ type: 'conversation.updated', conversationId: c.id, conversation: c });
    await marking;
    expect(store.counts.unread).to.equal(0);
    store.stop();
  });
});
