import { describe, expect, test } from 'vitest';
import { ATTENTION_PRIORITY, attentionOf, badgeOf, countAttention, isUnread, type AttentionInput } from './attention.ts';

const T1 = '2026-01-15T10:00:00.000Z';
const T2 = '2026-01-15T10:05:00.000Z';

const quiet: AttentionInput = { live: false, inputNeeded: false, lastAssistantAt: null, lastReadAt: null };
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

describe('attentionOf', () => {
  test('priority is live, then input needed, then unviewed, then default', () => {
    expect(ATTENTION_PRIORITY).toEqual(['live', 'input_needed', 'unviewed', 'default']);
    expect(attentionOf({ ...unread, live: true, inputNeeded: true })).toBe('live');
    expect(attentionOf({ ...unread, inputNeeded: true })).toBe('input_needed');
    expect(attentionOf(unread)).toBe('unviewed');
    expect(attentionOf(quiet)).toBe('default');
  });

  test('a read conversation with a live run shows live, not default', () => {
    expect(attentionOf({ ...quiet, live: true, lastAssistantAt: T1, lastReadAt: T1 })).toBe('live');
  });
});

describe('countAttention', () => {
  test('each conversation counts once, under its highest-priority state', () => {
    const counts = countAttention([
      { ...unread, live: true, inputNeeded: true }, // live only
      { ...unread, inputNeeded: true }, // input needed only
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
