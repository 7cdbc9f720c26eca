import { expect, test } from 'vitest';
import { asksSomething } from './unanswered.ts';

test('a question mark or a question’s first word asks something; a greeting or thanks does not', () => {
  expect(asksSomething(['Can I pay with Bitcoin'])).toBe(true);
  expect(asksSomething(['paying with bitcoin?'])).toBe(true);
  expect(asksSomething(['Hi!', 'how long is the warranty'])).toBe(true);
  expect(asksSomething(['Hvor lang er leveringstiden'])).toBe(true);
  expect(asksSomething(['hello there'])).toBe(false);
  expect(asksSomething(['Thanks, that helps.'])).toBe(false);
});
