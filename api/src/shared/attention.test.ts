import { describe, expect, test } from 'vitest';
import { ATTENTION_PRIORITY, attentionOf, badgeOf, countAttention, isInputNeeded, isUnread, type AttentionInput } from './attention.ts';

const T1 = '2026-01-15T10:00:00.000Z';
const T2 = '2026-01-15T10:05:00.000Z';

const quiet: AttentionInput = { live: false, inputRequest: null, lastAssistantAt: null, lastReadAt: null };
const unread: AttentionInput = { ...quiet, lastAssistantAt: T2, lastReadAt: T1 };

describe('isUnread', () => {
  test('a conversation without any reply is never unread', () => {
    expect(isUnread({ lastAssistantAt: null, lastReadAt: null })).toBe(false);
    expect(isUnread({ lastAssistantAt: undefined, lastReadAt: T1 })).toBe(false);
  });

  test('a reply the visitor never marked read is unread', () => {
    expect(isUnread({ lastAssistantAt: T1, lastReadAt: null })).toBe(true);
    expect(isUnread({ lastAssistantAt: new Date(T1), lastReadAt: undefined })).toBe(true);
  });

  test('a reply newer than the read marker is unread; one at or before it is read', () => {
    expect(isUnread({ lastAssistantAt: T2, lastReadAt: T1 })).toBe(true);
    expect(isUnread({ lastAssistantAt: T1, lastReadAt: T1 })).toBe(false);
    expect(isUnread({ lastAssistantAt: T1, lastReadAt: T2 })).toBe(false);
  });

  test('strings and Dates for the same instant compare as the same time, whatever their offset notation', () => {
    expect(isUnread({ lastAssistantAt: new Date(T1), lastReadAt: T1 })).toBe(false);
    expect(isUnread({ lastAssistantAt: T1, lastReadAt: new Date(T1) })).toBe(false);
    expect(isUnread({ lastAssistantAt: '2026-01-15T11:00:00+01:00', lastReadAt: T1 })).toBe(false);
    // one millisecond newer is newer
    expect(isUnread({ lastAssistantAt: new Date(Date.parse(T1) + 1), lastReadAt: T1 })).toBe(true);
  });
});

describe('isInputNeeded', () => {
  test('an open question the visitor has not viewed needs input', () => {
    expect(isInputNeeded({ inputRequest: { createdAt: T2 }, lastReadAt: T1 })).toBe(true);
    expect(isInputNeeded({ inputRequest: { createdAt: T1 }, lastReadAt: null })).toBe(true);
  });

  test('viewing the question (the read marker reaches its time) acknowledges it', () => {
    expect(isInputNeeded({ inputRequest: { createdAt: T1 }, lastReadAt: T1 })).toBe(false);
    expect(isInputNeeded({ inputRequest: { createdAt: new Date(T1) }, lastReadAt: T2 })).toBe(false);
  });

  test('no open question, no input needed', () => {
    expect(isInputNeeded({ inputRequest: null, lastReadAt: null })).toBe(false);
    expect(isInputNeeded({ lastReadAt: null })).toBe(false);
  });
});

describe('attentionOf', () => {
  test('priority is live, then input needed, then unviewed, then waiting for a person, then default', () => {
    expect(ATTENTION_PRIORITY).toEqual(['live', 'input_needed', 'unviewed', 'waiting', 'default']);
    expect(attentionOf({ ...unread, live: true, inputRequest: { createdAt: T2 }, waitingForPerson: true })).toBe('live');
    expect(attentionOf({ ...unread, inputRequest: { createdAt: T2 }, waitingForPerson: true })).toBe('input_needed');
    expect(attentionOf({ ...unread, waitingForPerson: true })).toBe('unviewed');
    expect(attentionOf({ ...quiet, waitingForPerson: true })).toBe('waiting');
    expect(attentionOf(quiet)).toBe('default');
  });

  test('a conversation waiting for a person raises no badge once its messages are read', () => {
    const counts = countAttention([{ ...quiet, waitingForPerson: true, lastAssistantAt: T1, lastReadAt: T1 }]);
    expect(badgeOf(counts)).toBeNull();
    expect(badgeOf(countAttention([{ ...unread, waitingForPerson: true }]))).toEqual({ state: 'unviewed', count: 1 });
  });

  test('a viewed open question falls back to default (or unviewed when a newer reply came)', () => {
    expect(attentionOf({ ...quiet, inputRequest: { createdAt: T1 }, lastAssistantAt: T1, lastReadAt: T1 })).toBe('default');
    expect(attentionOf({ ...quiet, inputRequest: { createdAt: T1 }, lastAssistantAt: T2, lastReadAt: T1 })).toBe('unviewed');
  });

  test('a read conversation with a live run shows live, not default', () => {
    expect(attentionOf({ ...quiet, live: true, lastAssistantAt: T1, lastReadAt: T1 })).toBe('live');
  });
});

describe('countAttention', () => {
  test('each conversation counts once, under its highest-priority state', () => {
    const counts = countAttention([
      { ...unread, live: true, inputRequest: { createdAt: T2 } }, // live only
      { ...unread, inputRequest: { createdAt: T2 } }, // input needed only
      unread,
      unread,
      quiet,
      { ...quiet, lastAssistantAt: T1, lastReadAt: T1 },
    ]);
    expect(counts).toEqual({ live: 1, inputNeeded: 1, unread: 2 });
    expect(counts.live + counts.inputNeeded + counts.unread).toBe(4);
  });

  test('an empty list counts nothing', () => {
    expect(countAttention([])).toEqual({ live: 0, inputNeeded: 0, unread: 0 });
  });
});

describe('badgeOf', () => {
  test('the badge shows the count of the highest-priority state that has any', () => {
    expect(badgeOf({ live: 2, inputNeeded: 1, unread: 5 })).toEqual({ state: 'live', count: 2 });
    expect(badgeOf({ live: 0, inputNeeded: 1, unread: 5 })).toEqual({ state: 'input_needed', count: 1 });
    expect(badgeOf({ live: 0, inputNeeded: 0, unread: 5 })).toEqual({ state: 'unviewed', count: 5 });
  });

  test('nothing needing attention means no badge at all', () => {
    expect(badgeOf({ live: 0, inputNeeded: 0, unread: 0 })).toBeNull();
  });

  test('badge of a counted list agrees with the per-conversation states', () => {
    expect(badgeOf(countAttention([unread, quiet, unread]))).toEqual({ state: 'unviewed', count: 2 });
    expect(badgeOf(countAttention([quiet]))).toBeNull();
  });
});
