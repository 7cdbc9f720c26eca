/// <reference types="mocha" />
import { expect, waitUntil } from '@open-wc/testing';
import { item } from '../test-support/fake-console-api.ts';
import type { ChangeHandlers } from './console-api.ts';
import type { ConversationUpsert } from './contract.ts';
import { sharedChanges, type StreamHandlers } from './shared-changes.ts';

function setup(lingerMs = 20) {
  const opened: StreamHandlers[] = [];
  let closed = 0;
  const { listen } = sharedChanges((h) => {
    opened.push(h);
    return () => void closed++;
  }, lingerMs);
  const seen = (into: string[]): ChangeHandlers => ({
    onChange: (c: ConversationUpsert) => into.push(c.item.title!),
    onRemoved: (id: string) => into.push(`removed ${id}`),
    onState: () => {},
    onError: () => {},
  });
  return { listen, opened, seen, closed: () => closed };
}

describe('one shared stream of changes per tab', () => {
  it('serves every view from one connection, each filtered to its site', () => {
    const { listen, opened, seen } = setup();
    const all: string[] = [];
    const shop: string[] = [];
    listen(undefined, seen(all));
    listen('site-1', seen(shop));
    expect(opened).to.have.length(1);
    opened[0]!.onChange({ type: 'upsert', item: item({ title: 'A', siteId: 'site-1' }) });
    opened[0]!.onChange({ type: 'upsert', item: item({ title: 'B', siteId: 'site-2' }) });
    expect(all).to.deep.equal(['A', 'B']);
    expect(shop).to.deep.equal(['A']);
  });

  it('tells every view of a removal, whatever its site: the row is gone and names none', () => {
    const { listen, opened, seen } = setup();
    const all: string[] = [];
    const shop: string[] = [];
    listen(undefined, seen(all));
    listen('site-1', seen(shop));
    // a view that does not follow removals is simply not told
    listen('site-2', { onChange: () => {}, onState: () => {}, onError: () => {} });
    opened[0]!.onChange({ type: 'removed', conversationId: 'c-1' });
    expect(all).to.deep.equal(['removed c-1']);
    expect(shop).to.deep.equal(['removed c-1']);
  });

  it('keeps the connection across a hop between views, and closes it once nobody listens for a while', async () => {
    const { listen, opened, seen, closed } = setup();
    const stop = listen(undefined, seen([]));
    stop();
    const stopAgain = listen(undefined, seen([]));
    // a second set, stopped after the first's stop: once its linger has run out, so has the first's
    const probe = setup();
    probe.listen(undefined, probe.seen([]))();
    await waitUntil(() => probe.closed() > 0, 'the probe to close');
    expect([opened.length, closed()]).to.deep.equal([1, 0]);
    stopAgain();
    await waitUntil(() => closed() > 0, 'the connection to close once nobody listens');
    expect(closed()).to.equal(1);
    listen(undefined, seen([]));
    expect(opened).to.have.length(2);
  });

  it('tells a late listener the connection is up, and opens anew after a failure for good', async () => {
    const { listen, opened } = setup();
    listen(undefined, { onChange: () => {}, onState: () => {}, onError: () => {} });
    opened[0]!.onState('connected');
    const states: string[] = [];
    const errors: unknown[] = [];
    listen(undefined, { onChange: () => {}, onState: (s) => states.push(s), onError: (e) => errors.push(e) });
    await waitUntil(() => states.length > 0, 'the late listener to hear the state');
    expect(states).to.deep.equal(['connected']);
    opened[0]!.onError(new Error('signed out'));
    expect(errors).to.have.length(1);
    listen(undefined, { onChange: () => {}, onState: () => {}, onError: () => {} });
    expect(opened).to.have.length(2);
  });
});
