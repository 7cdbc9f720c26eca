/// <reference types="mocha" />
import { expect, waitUntil } from '@open-wc/testing';
import { HeedStore } from './store.ts';
import { ThreadSync } from './thread-sync.ts';
import { sendingIn, sendWait } from './send-wait.ts';
import { conversation, FakeApi, message, settle } from '../test-support/fake-api.ts';

async function started(api: FakeApi) {
  const store = new HeedStore({ api, siteKey: 'site', tokens: { read: () => undefined, write: () => {} } });
  await store.start();
  await settle();
  return store;
}

/** What a tRPC client error for a 429 carries (the widget reads only `data`). */
const tooMany = (retryAfterMs: number | null, reason = 'send_burst_limit') =>
  Object.assign(new Error('Too many requests'), { data: { code: 'TOO_MANY_REQUESTS', httpStatus: 429, reason, retryAfterMs } });

/** The fake refuses the next `n` sends with `error`, then answers as usual. */
function refuseNext(api: FakeApi, n: number, error: () => Error) {
  const send = api.send.bind(api);
  let left = n;
  api.send = async (input) => {
    if (left-- > 0) {
      api.calls.push({ method: 'send', args: [input] });
      throw error();
    }
    return send(input);
  };
}

const contents = (api: FakeApi) => api.callsOf('send').map(([i]) => (i as { content: string }).content);

describe('ThreadSync under rate limits', () => {
  it('keeps a refused send queued with the time it goes out, holds the sends behind it, then delivers all once, in order', async () => {
    const c = conversation();
    const api = new FakeApi({ conversations: [c] });
    const store = await started(api);
    const threads = new ThreadSync(store);
    threads.open(c.id);
    refuseNext(api, 1, () => tooMany(400));
    threads.send(c.id, 'one');
    await settle();
    const [one] = store.state.threads.get(c.id)!;
    expect(one).to.include({ content: 'one', pending: true });
    expect(one!.retryAt).to.be.a('number');
    expect(one!.sendError).to.be.undefined;

    threads.send(c.id, 'two'); // behind the wait, never ahead of 'one'
    await settle();
    expect(contents(api)).to.deep.equal(['one']);
    expect(store.state.threads.get(c.id)!.map((m) => !!m.retryAt)).to.deep.equal([true, true]);
    expect(store.unsent()).to.be.true;

    await waitUntil(() => !store.unsent(), 'the queue is delivered', { timeout: 3000 });
    expect(contents(api)).to.deep.equal(['one', 'one', 'two']);
    const thread = store.state.threads.get(c.id)!;
    expect(thread.map((m) => [m.content, !!m.pending, m.retryAt])).to.deep.equal([
      ['one', false, undefined],
      ['two', false, undefined],
    ]);
    store.stop();
  });

  it('waits for a reply when the server names no time (a full pending batch), then sends', async () => {
    const c = conversation();
    const api = new FakeApi({ conversations: [c] });
    const store = await started(api);
    const threads = new ThreadSync(store);
    threads.open(c.id);
    refuseNext(api, 1, () => tooMany(null, 'pending_batch_full'));
    threads.send(c.id, 'later');
    await settle();
    expect(store.state.threads.get(c.id)![0]!.retryAt).to.be.a('number');
    api.emit({ type: 'reply.completed', conversationId: c.id, runId: 'r1', message: message({ conversationId: c.id, runId: 'r1' }) });
    await waitUntil(() => !store.unsent(), 'sent after the reply', { timeout: 1000 });
    expect(contents(api)).to.deep.equal(['later', 'later']);
    store.stop();
  });

  it('still marks any other refusal "Not sent"', async () => {
    const c = conversation();
    const api = new FakeApi({ conversations: [c] });
    const store = await started(api);
    const threads = new ThreadSync(store);
    threads.open(c.id);
    refuseNext(api, 1, () => Object.assign(new Error('bad'), { data: { code: 'BAD_REQUEST' } }));
    threads.send(c.id, 'refused');
    await settle();
    expect(store.state.threads.get(c.id)![0]).to.include({ pending: false, sendError: 'Not sent' });
    store.stop();
  });
});

describe('sendWait', () => {
  it('reads the server’s wait, backs off when there is none, and ignores other errors', () => {
    expect(sendWait(tooMany(12_000), 0)).to.deep.equal({ ms: 12_000, untilReply: false });
    expect(sendWait(tooMany(null), 0)).to.deep.equal({ ms: 5_000, untilReply: true });
    expect(sendWait(tooMany(null), 2)).to.deep.equal({ ms: 20_000, untilReply: true });
    expect(sendWait(tooMany(null), 10)!.ms).to.equal(60_000);
    expect(sendWait(new Error('offline'), 0)).to.equal(null);
    expect(sendWait(null, 0)).to.equal(null);
  });

  it('says when a waiting send goes out, in whole seconds', () => {
    expect(sendingIn(11_200, 0)).to.equal('Sending in 12 s');
    expect(sendingIn(100, 0)).to.equal('Sending in 1 s');
    expect(sendingIn(-5, 0)).to.equal('Sending in 1 s');
    expect(sendingIn(600_000, 0)).to.equal('Sending in 10 min');
  });
});

describe('ThreadSync with other voices', () => {
  it('adds a notice and an operator’s message to the open thread in order, and an unsolicited reply without touching the visitor’s messages', async () => {
    const c = conversation();
    const api = new FakeApi({ conversations: [c] });
    const store = await started(api);
    const threads = new ThreadSync(store);
    threads.open(c.id);
    const asked = message({ conversationId: c.id, role: 'user', content: 'A person, please', state: 'pending' });
    api.emit({ type: 'message.created', conversationId: c.id, message: asked });
    const joined = message({ conversationId: c.id, role: 'notice', provenance: 'operator_joined', provenanceLabel: 'Ana', content: '' });
    const said = message({ conversationId: c.id, role: 'operator', provenance: 'operator', provenanceLabel: 'Ana', content: 'Hi' });
    // events may arrive out of order; the thread keeps the server's
    api.emit({ type: 'message.created', conversationId: c.id, message: said });
    api.emit({ type: 'message.created', conversationId: c.id, message: joined });
    api.emit({ type: 'run.started', conversationId: c.id, runId: 'r5', claimedMessageIds: [] });
    const checkIn = message({ conversationId: c.id, runId: 'r5', provenance: 'check_in', content: 'Still there?' });
    api.emit({ type: 'reply.completed', conversationId: c.id, runId: 'r5', message: checkIn });
    const thread = store.state.threads.get(c.id)!;
    expect(thread.map((m) => m.id)).to.deep.equal([asked.id, joined.id, said.id, checkIn.id]);
    expect(thread[0]!.state, 'an unsolicited run answers none of the visitor’s messages').to.equal('pending');
  });
});
