/// <reference types="mocha" />
import { expect } from '@open-wc/testing';
import { OutboxStorage, type StoredSend } from './outbox-storage.ts';

const KEY = 'heed:outbox:unit@https://chat.example/';
const send = (content: string): StoredSend => ({
  visitorId: 'v1',
  clientMessageId: crypto.randomUUID(),
  conversationId: 'c1',
  content,
  createdAt: '2026-01-01T10:00:00.000Z',
});

describe('OutboxStorage', () => {
  afterEach(() => localStorage.removeItem(KEY));

  it('keeps sends in order and removes its key once the queue is empty', () => {
    const outbox = new OutboxStorage(KEY);
    const [a, b] = [send('a'), send('b')];
    expect(outbox.add(a) && outbox.add(b)).to.be.true;
    outbox.replace({ ...a, content: 'a2' });
    expect(outbox.read()!.map((s) => s.content)).to.deep.equal(['a2', 'b']);
    outbox.remove(a.clientMessageId);
    outbox.remove(b.clientMessageId);
    expect(localStorage.getItem(KEY)).to.equal(null);
  });

  it('reads a damaged or foreign value as an empty queue, skipping entries it does not know', () => {
    const outbox = new OutboxStorage(KEY);
    localStorage.setItem(KEY, '{"not":"a list"}');
    expect(outbox.read()).to.deep.equal([]);
    localStorage.setItem(KEY, JSON.stringify([{ content: 'no ids' }, send('ok')]));
    expect(outbox.read()!.map((s) => s.content)).to.deep.equal(['ok']);
  });

  it('runs the work once, unlocked, when the browser refuses the lock', async () => {
    const locks = Object.getOwnPropertyDescriptor(Navigator.prototype, 'locks')!;
    Object.defineProperty(navigator, 'locks', {
      configurable: true,
      value: { request: () => Promise.reject(new DOMException('opaque origin', 'SecurityError')) },
    });
    try {
      let runs = 0;
      await new OutboxStorage(KEY).exclusive(async () => void runs++);
      expect(runs).to.equal(1);
    } finally {
      delete (navigator as { locks?: unknown }).locks;
      expect(Object.getOwnPropertyDescriptor(Navigator.prototype, 'locks')).to.deep.equal(locks);
    }
  });
});
