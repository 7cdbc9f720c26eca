/// <reference types="mocha" />
import { expect } from '@open-wc/testing';
import { hrefOf, parseRoute, type Route, sectionOf, titleOf } from './route.ts';

describe('console routes', () => {
  it('round-trips every view through its hash', () => {
    const routes: Route[] = [
      { view: 'overview' },
      { view: 'conversations' },
      { view: 'transcript', conversationId: 'c-1' },
      { view: 'sites' },
      { view: 'site', siteId: null },
      { view: 'site', siteId: 's/1' },
      { view: 'operators' },
      { view: 'invite', token: 'abc.def' },
    ];
    for (const r of routes) expect(parseRoute(hrefOf(r))).to.deep.equal(r);
  });

  it("keeps the list's filter, search and site in the URL, with or without an open conversation", () => {
    const list = { filter: 'mine' as const, search: 'refund & return', siteId: 's-1' };
    for (const r of [
      { view: 'conversations', list },
      { view: 'transcript', conversationId: 'c-1', list },
    ] as Route[])
      expect(parseRoute(hrefOf(r))).to.deep.equal(r);
    expect(hrefOf({ view: 'conversations', list: { filter: 'all' } })).to.equal('#/conversations');
    expect(parseRoute('#/conversations?filter=bogus&q=%20%20')).to.deep.equal({ view: 'conversations' });
  });

  it('opens the conversation list for an empty, unknown or malformed hash', () => {
    for (const hash of ['', '#', '#/', '#/nope', '#/invite', '#/conversations/'])
      expect(parseRoute(hash)).to.deep.equal({ view: 'conversations' });
    expect(parseRoute('#/conversations/%E0%A4%A')).to.deep.equal({ view: 'transcript', conversationId: '%E0%A4%A' });
  });

  it('names the open view first in the document title', () => {
    expect(titleOf({ view: 'overview' })).to.equal('Overview · Heed console');
    expect(titleOf({ view: 'transcript', conversationId: 'x' }, 'Refund for order 1042')).to.equal(
      'Refund for order 1042 · Transcript · Heed console',
    );
    expect(titleOf({ view: 'site', siteId: null })).to.equal('New site · Heed console');
  });

  it('highlights the section a nested view belongs to', () => {
    expect(sectionOf({ view: 'transcript', conversationId: 'x' })).to.equal('conversations');
    expect(sectionOf({ view: 'site', siteId: 'x' })).to.equal('sites');
    expect(sectionOf({ view: 'invite', token: 't' })).to.equal(null);
  });
});
