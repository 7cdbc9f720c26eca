/// <reference types="mocha" />
import { expect } from '@open-wc/testing';
import { item } from '../test-support/fake-console-api.ts';
import type { ConversationItem } from '../state/contract.ts';
import { alertOf } from './alert-events.ts';
import { alertWords } from './alert-words.ts';
import { countedTitle, needingCount, needsMe } from './needs-me.ts';
import { SeenMarks } from './seen-marks.ts';

const me = { id: 'op-me' };
const colleague = { id: 'op-2', name: 'Bea' };
const mine = { id: me.id, name: 'Me' };
const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 10, minute)).toISOString();
/** the console opened at 10:05 */
const openedAt = Date.parse(at(5));
const ctx = { me, openedAt };
/** the same conversation, later */
const later = (c: ConversationItem, over: Partial<ConversationItem>, minute = 10): ConversationItem => ({
  ...c,
  updatedAt: at(minute),
  ...over,
});

describe('alert rules', () => {
  it('alert when a conversation starts waiting for a person, once', () => {
    const before = item({ siteName: 'Shop', title: 'Boots in green', updatedAt: at(6) });
    const after = later(before, { waitingForPerson: true, waitingSince: at(10) });
    expect(alertOf(before, after, ctx)).to.deep.include({
      kind: 'waiting',
      conversationId: before.id,
      siteName: 'Shop',
      title: 'Boots in green',
    });
    expect(alertOf(after, later(after, {}, 11), ctx), 'still waiting').to.equal(null);
  });

  it('alert for a conversation first seen waiting only when its wait began after the console opened', () => {
    expect(alertOf(undefined, item({ waitingForPerson: true, waitingSince: at(6), updatedAt: at(6) }), ctx)?.kind).to.equal('waiting');
    expect(alertOf(undefined, item({ waitingForPerson: true, waitingSince: at(1), updatedAt: at(6) }), ctx), 'old wait').to.equal(null);
  });

  it('alert for a visitor message in a conversation assigned to or held by the operator, not in others', () => {
    for (const whose of [{ assignee: mine }, { heldBy: mine }]) {
      const before = item({ ...whose, lastVisitorAt: at(6), updatedAt: at(6) });
      expect(alertOf(before, later(before, { lastVisitorAt: at(10) }), ctx)?.kind).to.equal('visitor_message');
    }
    const theirs = item({ assignee: colleague, lastVisitorAt: at(6), updatedAt: at(6) });
    expect(alertOf(theirs, later(theirs, { lastVisitorAt: at(10) }), ctx)).to.equal(null);
    const nobodys = item({ lastVisitorAt: at(6), updatedAt: at(6) });
    expect(alertOf(nobodys, later(nobodys, { lastVisitorAt: at(10) }), ctx)).to.equal(null);
  });

  it('no alert for what the operator did: taking over, being assigned, replying', () => {
    const before = item({ lastVisitorAt: at(6), updatedAt: at(6) });
    const assigned = later(before, { assignee: mine });
    expect(alertOf(before, assigned, ctx)).to.equal(null);
    const held = later(assigned, { heldBy: mine }, 11);
    expect(alertOf(assigned, held, ctx)).to.equal(null);
    expect(alertOf(held, later(held, { lastAssistantAt: at(12) }, 12), ctx)).to.equal(null);
    // let go by the operator themselves back into the queue: not an alert to them
    expect(alertOf(held, later(held, { heldBy: null, waitingForPerson: true, waitingSince: at(13) }, 13), ctx)).to.equal(null);
  });

  it('no alert for what is already on screen, already seen, older than known, or there before the console opened', () => {
    const before = item({ assignee: mine, lastVisitorAt: at(6), updatedAt: at(6) });
    const wrote = later(before, { lastVisitorAt: at(10) });
    expect(alertOf(before, wrote, { ...ctx, onScreen: true }), 'on screen').to.equal(null);
    expect(alertOf(before, wrote, { ...ctx, seenVisitorAt: Date.parse(at(10)) }), 'seen').to.equal(null);
    expect(alertOf(wrote, before, ctx), 'older than known').to.equal(null);
    expect(alertOf(undefined, item({ assignee: mine, lastVisitorAt: at(2), updatedAt: at(2) }), ctx), 'before opening').to.equal(null);
    expect(alertOf(undefined, item({ assignee: mine, lastVisitorAt: at(7), updatedAt: at(7) }), ctx)?.kind, 'after opening').to.equal(
      'visitor_message',
    );
  });

  it('a waiting alert comes first when both happen at once', () => {
    const before = item({ assignee: mine, lastVisitorAt: at(6), updatedAt: at(6) });
    expect(alertOf(before, later(before, { lastVisitorAt: at(10), waitingForPerson: true, waitingSince: at(10) }), ctx)?.kind).to.equal(
      'waiting',
    );
  });
});

describe('the tab count', () => {
  it('counts waiting conversations, and the operator’s own with a visitor message nobody answered or they did not see', () => {
    const waiting = item({ waitingForPerson: true, waitingSince: at(1) });
    const unanswered = item({ assignee: mine, lastVisitorAt: at(3), lastAssistantAt: at(2) });
    const answered = item({ heldBy: mine, lastVisitorAt: at(3), lastAssistantAt: at(4) });
    const colleagues = item({ assignee: colleague, lastVisitorAt: at(3), lastAssistantAt: at(2) });
    const quiet = item({ assignee: mine, lastVisitorAt: null });
    expect([waiting, unanswered, answered, colleagues, quiet].map((c) => needsMe(c, me))).to.deep.equal([true, true, false, false, false]);
    expect(needsMe(unanswered, me, Date.parse(at(3))), 'seen').to.equal(false);
    expect(needsMe(unanswered, me, Date.parse(at(2))), 'an older message seen').to.equal(true);
    // waiting and unanswered at once: one conversation, counted once
    const both = item({ waitingForPerson: true, assignee: mine, lastVisitorAt: at(3) });
    expect(needingCount([waiting, unanswered, answered, both], me, () => undefined)).to.equal(3);
  });

  it('goes in front of the title, keeping its text, and replaces an earlier count', () => {
    expect(countedTitle('Conversations · Heed console', 2)).to.equal('(2) Conversations · Heed console');
    expect(countedTitle('(2) Conversations · Heed console', 1)).to.equal('(1) Conversations · Heed console');
    expect(countedTitle('(2) Conversations · Heed console', 0)).to.equal('Conversations · Heed console');
    expect(countedTitle('Sites · Heed console', 250)).to.equal('(99+) Sites · Heed console');
  });
});

describe('alert words', () => {
  it('name the site and the conversation, never a private conversation’s title or visitor', () => {
    const open = alertOf(
      undefined,
      item({ siteName: 'Shop', title: 'Boots in green', waitingForPerson: true, waitingSince: at(9), updatedAt: at(9) }),
      ctx,
    )!;
    expect(alertWords(open)).to.deep.equal({
      title: 'Visitor waiting for a person',
      body: 'Shop — Boots in green',
      spoken: 'Visitor waiting for a person: Shop — Boots in green',
    });
    const secret = item({
      siteName: 'Shop',
      title: 'my card number is',
      private: true,
      assignee: mine,
      visitor: { id: 'v', externalId: null, name: 'Ada Lovelace' },
      lastVisitorAt: at(9),
      updatedAt: at(9),
    });
    const words = alertWords(alertOf(undefined, secret, ctx)!);
    expect(words).to.deep.equal({
      title: 'New message from the visitor',
      body: 'Shop — Private conversation',
      spoken: 'New visitor message: Shop — Private conversation',
    });
    const named = alertWords(alertOf(undefined, { ...secret, private: false }, ctx)!);
    expect(named.title).to.equal('New message from Ada Lovelace');
  });
});

describe('seen marks', () => {
  afterEach(() => localStorage.removeItem('heed-console-seen:op-seen'));

  it('only move forward, are the operator’s own, and outlive a reload', () => {
    const seen = new SeenMarks('op-seen');
    expect(seen.see('c1', 100)).to.equal(true);
    expect(seen.see('c1', 50), 'older').to.equal(false);
    expect(new SeenMarks('op-seen').get('c1'), 'after a reload').to.equal(100);
    expect(new SeenMarks('op-other').get('c1'), 'another operator').to.equal(undefined);
    localStorage.setItem('heed-console-seen:op-seen', '{not json');
    expect(new SeenMarks('op-seen').get('c1'), 'unreadable storage').to.equal(undefined);
  });
});
