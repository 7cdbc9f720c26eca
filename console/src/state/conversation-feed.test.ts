/// <reference types="mocha" />
import { expect } from '@open-wc/testing';
import { item } from '../test-support/fake-console-api.ts';
import { applyChange, applyWaitingChange, matchesFilter } from './conversation-feed.ts';

const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 12, 0, s)).toISOString();

describe('the live conversation feed', () => {
  it('adds a new conversation at the top', () => {
    const a = item({ updatedAt: at(1) });
    const b = item({ updatedAt: at(2) });
    const fresh = item({ updatedAt: at(3) });
    expect(applyChange([b, a], fresh, { filter: 'all' }).map((c) => c.id)).to.deep.equal([fresh.id, b.id, a.id]);
  });

  it('moves a conversation with new activity to the top and shows its new state', () => {
    const a = item({ updatedAt: at(1) });
    const b = item({ updatedAt: at(2) });
    const next = applyChange([b, a], { ...a, updatedAt: at(5), attention: 'live' }, { filter: 'all' });
    expect(next.map((c) => c.id)).to.deep.equal([a.id, b.id]);
    expect(next[0]!.attention).to.equal('live');
  });

  it('drops a row that leaves the filter and ignores changes for other sites', () => {
    const live = item({ attention: 'live', updatedAt: at(1) });
    expect(applyChange([live], { ...live, attention: 'default', updatedAt: at(2) }, { filter: 'live' })).to.deep.equal([]);
    expect(applyChange([], item({ siteId: 'other', updatedAt: at(3) }), { filter: 'all', siteId: 'site-1' })).to.deep.equal([]);
  });

  it('keeps the newer row when an older change arrives late', () => {
    const a = item({ updatedAt: at(9), title: 'Newer' });
    expect(applyChange([a], { ...a, updatedAt: at(1), title: 'Older' }, { filter: 'all' })[0]!.title).to.equal('Newer');
  });

  it('with a search, updates rows shown but adds none (matching is the server’s)', () => {
    const a = item({ updatedAt: at(1) });
    expect(applyChange([a], item({ updatedAt: at(2) }), { filter: 'all', search: 'boots' })).to.have.length(1);
    expect(applyChange([a], { ...a, title: 'Renamed', updatedAt: at(3) }, { filter: 'all', search: 'boots' })[0]!.title).to.equal(
      'Renamed',
    );
  });

  it('matches each filter by the operator’s attention state or failure', () => {
    expect(matchesFilter(item({ attention: 'unviewed' }), 'unread')).to.be.true;
    expect(matchesFilter(item({ attention: 'input_needed' }), 'input_needed')).to.be.true;
    expect(matchesFilter(item({ failed: true }), 'failed')).to.be.true;
    expect(matchesFilter(item({ attention: 'default' }), 'live')).to.be.false;
  });

  it('keeps the waiting queue in the server’s order: a new wait joins the end, a taken-over one leaves', () => {
    const a = item({ waitingForPerson: true });
    const b = item({ waitingForPerson: true });
    let queue = [a, b];
    queue = applyWaitingChange(queue, { ...a, updatedAt: at(30) });
    expect(queue.map((c) => c.id)).to.deep.equal([a.id, b.id]);
    const c = item({ waitingForPerson: true });
    queue = applyWaitingChange(queue, c);
    expect(queue.map((x) => x.id)).to.deep.equal([a.id, b.id, c.id]);
    queue = applyWaitingChange(queue, { ...b, waitingForPerson: false, heldBy: { id: 'op-1', name: 'Ana' }, updatedAt: at(30) });
    expect(queue.map((x) => x.id)).to.deep.equal([a.id, c.id]);
    expect(applyWaitingChange(queue, item({ waitingForPerson: true, siteId: 'other' }), 'site-1')).to.have.length(2);
  });

  it('keeps the Waiting for a person filter in wait order too', () => {
    const a = item({ waitingForPerson: true, updatedAt: at(1) });
    const b = item({ waitingForPerson: true, updatedAt: at(2) });
    expect(applyChange([a, b], { ...a, updatedAt: at(9) }, { filter: 'waiting' }).map((c) => c.id)).to.deep.equal([a.id, b.id]);
    expect(applyChange([a, b], { ...a, waitingForPerson: false, updatedAt: at(9) }, { filter: 'waiting' }).map((c) => c.id)).to.deep.equal([
      b.id,
    ]);
    expect(matchesFilter(a, 'waiting')).to.be.true;
  });
});
