import { describe, expect, test } from 'vitest';
import { isSupersededFailure, supersededFailures, type SupersedableMessage } from './superseded-failures.ts';

const visitor = (id: string): SupersedableMessage => ({ id, role: 'user', error: null, provenance: null });
const reply = (id: string): SupersedableMessage => ({ id, role: 'assistant', error: null, provenance: null });
const failed = (id: string): SupersedableMessage => ({ id, role: 'assistant', error: 'model_unavailable', provenance: null });

describe('supersededFailures', () => {
  test('a failed reply that nothing answered since is not superseded: its Retry still has work', () => {
    expect(supersededFailures([visitor('u1'), failed('f1')])).toEqual(new Set());
  });

  test('a failed reply retried successfully is superseded by the answer to its batch', () => {
    expect(supersededFailures([visitor('u1'), failed('f1'), reply('r1')])).toEqual(new Set(['f1']));
  });

  test('a later batch answered also supersedes the failure, whose messages it claimed with it', () => {
    expect(supersededFailures([visitor('u1'), failed('f1'), visitor('u2'), reply('r2')])).toEqual(new Set(['f1']));
  });

  test('every failure before the answer is superseded, a failure after it is not', () => {
    const messages = [visitor('u1'), failed('f1'), failed('f2'), reply('r1'), visitor('u2'), failed('f3')];
    expect(supersededFailures(messages)).toEqual(new Set(['f1', 'f2']));
  });

  test('an operator message or an unsolicited one does not answer the failed batch', () => {
    const operator: SupersedableMessage = { id: 'o1', role: 'operator', error: null, provenance: 'operator' };
    const checkIn: SupersedableMessage = { id: 'p1', role: 'assistant', error: null, provenance: 'check_in' };
    expect(supersededFailures([visitor('u1'), failed('f1'), operator, checkIn])).toEqual(new Set());
  });

  test('a message without a provenance field (an older API) counts as a reply', () => {
    expect(supersededFailures([failed('f1'), { id: 'r1', role: 'assistant', error: null }])).toEqual(new Set(['f1']));
  });

  test('isSupersededFailure answers for one message, and never for a reply that did not fail', () => {
    const messages = [visitor('u1'), failed('f1'), reply('r1')];
    expect(isSupersededFailure(messages[1]!, messages)).toBe(true);
    expect(isSupersededFailure(messages[2]!, messages)).toBe(false);
  });
});
