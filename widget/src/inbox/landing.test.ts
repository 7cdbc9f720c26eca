/// <reference types="mocha" />
import { expect } from '@open-wc/testing';
import { landingConversation, latestConversation } from './landing.ts';
import { conversation } from '../test-support/fake-api.ts';

const T1 = '2026-01-01T10:00:00.000Z';
const T2 = '2026-01-01T11:00:00.000Z';
const fresh = { conversationId: null, home: false };

describe('landingConversation', () => {
  it('returns a returning visitor to their most recent conversation when nothing calls for attention', () => {
    const recent = conversation({ title: 'My order #1234' });
    const older = conversation({ title: 'Sizes' });
    expect(landingConversation([recent, older], fresh)).to.equal(recent.id);
  });

  it('prefers the conversation that needs attention, by the attention rule: live, then input needed, then unviewed', () => {
    const plain = conversation();
    const unviewed = conversation({ lastAssistantAt: T2, lastReadAt: T1 });
    const asking = conversation({ inputNeeded: true, updatedAt: T2 });
    const live = conversation({ live: true });
    expect(landingConversation([plain, unviewed], fresh)).to.equal(unviewed.id);
    expect(landingConversation([plain, unviewed, asking], fresh)).to.equal(asking.id);
    expect(landingConversation([plain, unviewed, asking, live], fresh)).to.equal(live.id);
  });

  it('a conversation waiting for a person does not call the visitor back: the most recent one is opened', () => {
    const recent = conversation();
    const waiting = conversation({ waitingForPerson: true });
    expect(landingConversation([recent, waiting], fresh)).to.equal(recent.id);
  });

  it('reopens the thread this tab had open, while it is still the visitor’s', () => {
    const recent = conversation();
    const before = conversation();
    expect(landingConversation([recent, before], { conversationId: before.id, home: false })).to.equal(before.id);
    expect(landingConversation([recent], { conversationId: before.id, home: false })).to.equal(recent.id);
  });

  it('keeps the home view when the visitor went home on purpose, or has no conversation yet', () => {
    expect(landingConversation([conversation({ live: true })], { conversationId: null, home: true })).to.equal(null);
    expect(landingConversation([], fresh)).to.equal(null);
  });

  it('offers the most recently active conversation to continue', () => {
    const recent = conversation();
    expect(latestConversation([recent, conversation()])?.id).to.equal(recent.id);
    expect(latestConversation([])).to.equal(undefined);
  });
});
