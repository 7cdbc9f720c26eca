import { expect, test } from 'vitest';
import { wantsPretty } from './pretty.ts';

test('pretty lines only outside production, at a terminal or when LOG_PRETTY=1 asks', () => {
  expect(wantsPretty({ nodeEnv: 'development', isTty: true })).toBe(true);
  expect(wantsPretty({ nodeEnv: 'development', isTty: false })).toBe(false);
  expect(wantsPretty({ nodeEnv: 'development', isTty: false, logPretty: '1' })).toBe(true);
  expect(wantsPretty({ nodeEnv: 'development', isTty: true, logPretty: '0' })).toBe(false);
  expect(wantsPretty({ nodeEnv: 'test', isTty: true })).toBe(true);
});

test('production always writes JSON, whatever the terminal or LOG_PRETTY say', () => {
  expect(wantsPretty({ nodeEnv: 'production', isTty: true })).toBe(false);
  expect(wantsPretty({ nodeEnv: 'production', isTty: true, logPretty: '1' })).toBe(false);
});
