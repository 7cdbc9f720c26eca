import { describe, expect, test } from 'vitest';
import { decideTitle } from './decide-title.ts';

const answer = (title: unknown, changed: unknown = true) => JSON.stringify({ title, changed });
const generated = { title: 'Shipping to Canada', source: 'generated' as const };
const fallback = { title: 'hi, how much is shipping to canada?', source: 'first_message' as const };

describe('decideTitle', () => {
  test('a generated title is kept when the model says it did not change', () => {
    expect(decideTitle(generated, answer('Shipping costs to Canada', false))).toEqual({ outcome: 'kept', title: 'Shipping to Canada' });
  });

  test('a generated title is kept when the "new" title is the same words', () => {
    expect(decideTitle(generated, answer('"shipping to canada."', true))).toEqual({ outcome: 'kept', title: 'Shipping to Canada' });
  });

  test('a generated title changes when the model says so with a different title', () => {
    expect(decideTitle(generated, answer('Gift card balance', true))).toEqual({ outcome: 'changed', title: 'Gift card balance' });
  });

  test('a first-message title is always replaced by a valid proposal, even one marked unchanged', () => {
    expect(decideTitle(fallback, answer('Shipping to Canada', false))).toEqual({ outcome: 'changed', title: 'Shipping to Canada' });
  });

  test('a proposal equal to the first-message title keeps its text (it becomes generated)', () => {
    expect(decideTitle({ title: 'Refund request', source: 'first_message' }, answer('Refund request.'))).toEqual({
      outcome: 'kept',
      title: 'Refund request',
    });
  });

  test('the proposal is normalized before it is stored', () => {
    expect(decideTitle(generated, answer('**Title:** “Gift card balance!”'))).toEqual({ outcome: 'changed', title: 'Gift card balance' });
  });

  test.each([
    ['no content', null],
    ['not JSON', 'Shipping to Canada'],
    ['JSON of the wrong shape', '{"name":"Shipping"}'],
    ['a string "changed"', answer('Shipping', 'yes')],
    ['extra fields', JSON.stringify({ title: 'Shipping', changed: true, note: 'x' })],
    ['an absurdly long title', answer('x'.repeat(2000))],
  ])('%s is an invalid answer', (_what, content) => {
    expect(decideTitle(generated, content)).toMatchObject({ outcome: 'rejected', errorCode: 'invalid_answer' });
  });

  test.each([
    ['an empty title', ''],
    ['emoji only', '🎉🎉'],
    ['a refusal', "I'm sorry, I can't do that"],
  ])('%s is an invalid title', (_what, title) => {
    expect(decideTitle(fallback, answer(title))).toMatchObject({ outcome: 'rejected', errorCode: 'invalid_title' });
  });
});

describe('answers as models actually write them', () => {
  const fallback = { title: 'hi there', source: 'first_message' as const };
  test('JSON in a Markdown fence, or inside a sentence, is read', () => {
    expect(decideTitle(fallback, '```json\n{"title":"Refund for a broken lamp","changed":true}\n```')).toEqual({
      outcome: 'changed',
      title: 'Refund for a broken lamp',
    });
    expect(decideTitle(fallback, 'Sure! {"title":"Refund for a broken lamp","changed":true} Hope that helps.')).toEqual({
      outcome: 'changed',
      title: 'Refund for a broken lamp',
    });
  });

  test('a bare one-line title counts only where the server takes no structured output', () => {
    expect(decideTitle(fallback, 'Title: "Refund for a broken lamp"', { prose: true })).toEqual({
      outcome: 'changed',
      title: 'Refund for a broken lamp',
    });
    expect(decideTitle(fallback, 'Refund for a broken lamp')).toMatchObject({ outcome: 'rejected', reason: 'not JSON' });
    expect(decideTitle(fallback, 'one\ntwo\nthree', { prose: true })).toMatchObject({
      outcome: 'rejected',
      reason: 'prose longer than one short line',
    });
  });

  test('a rejection says why in terms of shape, never quoting the answer', () => {
    const d = decideTitle(fallback, '{"name":"Secret order 4242"}');
    expect(d).toMatchObject({ outcome: 'rejected', errorCode: 'invalid_answer' });
    expect(JSON.stringify(d)).not.toContain('4242');
  });
});
