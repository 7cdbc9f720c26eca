import { expect, test } from 'vitest';
import { continuableReply } from './cut-short.ts';

const msg = (id: string, role: string, over: { cutShort?: boolean; error?: string | null } = {}) => ({
  id,
  role,
  cutShort: over.cutShort ?? false,
  error: over.error ?? null,
});

test('the newest reply, cut short, may be continued; a notice after it does not change that', () => {
  expect(continuableReply([msg('q', 'user'), msg('r', 'assistant', { cutShort: true })])).toBe('r');
  expect(continuableReply([msg('q', 'user'), msg('r', 'assistant', { cutShort: true }), msg('n', 'notice')])).toBe('r');
});

test('a cut reply that anything followed, a whole reply, or a failed one may not', () => {
  expect(continuableReply([msg('r', 'assistant', { cutShort: true }), msg('c', 'user')])).toBeNull();
  expect(continuableReply([msg('r', 'assistant', { cutShort: true }), msg('o', 'operator')])).toBeNull();
  expect(continuableReply([msg('q', 'user'), msg('r', 'assistant')])).toBeNull();
  expect(continuableReply([msg('r', 'assistant', { cutShort: true, error: 'model_error' })])).toBeNull();
  expect(continuableReply([])).toBeNull();
});
