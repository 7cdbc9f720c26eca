/// <reference types="mocha" />
import { expect } from '@open-wc/testing';
import { readView, writeView } from './view-memory.ts';

const KEY = 'heed:view:test';

describe('view memory', () => {
  afterEach(() => sessionStorage.removeItem(KEY));

  it('remembers in this tab that the visitor went home on purpose, and which thread was open before', () => {
    expect(readView(KEY)).to.deep.equal({ open: false, conversationId: null, home: false });
    writeView(KEY, { open: true, conversationId: 'c1', home: false });
    writeView(KEY, { conversationId: null, home: true });
    expect(readView(KEY)).to.deep.equal({ open: true, conversationId: null, home: true });
  });

  it('reads anything else stored under its key as nowhere in particular', () => {
    sessionStorage.setItem(KEY, '{"open":"yes","conversationId":7,"home":1}');
    expect(readView(KEY)).to.deep.equal({ open: false, conversationId: null, home: false });
    sessionStorage.setItem(KEY, 'not json');
    expect(readView(KEY)).to.deep.equal({ open: false, conversationId: null, home: false });
  });
});
