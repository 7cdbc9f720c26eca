import { describe, expect, test } from 'vitest';
import { costUsd, DEFAULT_PRICE, priceOf, worstCaseCostUsd } from './pricing.ts';

describe('priceOf', () => {
  test('finds a model by the longest table key that starts its name', () => {
    expect(priceOf('gpt-4o-mini')).toEqual({ input: 0.15, output: 0.6 });
    expect(priceOf('gpt-4o-mini-2024-07-18')).toEqual({ input: 0.15, output: 0.6 });
    expect(priceOf('gpt-4o-2024-08-06')).toEqual({ input: 2.5, output: 10 });
    expect(priceOf('openai/gpt-4.1-mini')).toEqual({ input: 0.4, output: 1.6 });
  });

  test('an unknown model gets the conservative default', () => {
    expect(priceOf('some-local-model')).toEqual(DEFAULT_PRICE);
    expect(DEFAULT_PRICE.input).toBeGreaterThanOrEqual(Math.max(...['gpt-4o', 'gpt-4.1', 'gpt-5'].map((m) => priceOf(m).input)));
  });

  test('an override replaces the table entry, half by half', () => {
    expect(priceOf('gpt-4o-mini', { input: 1, output: 2 })).toEqual({ input: 1, output: 2 });
    expect(priceOf('gpt-4o-mini', { output: 2 })).toEqual({ input: 0.15, output: 2 });
    expect(priceOf('unknown', { input: 0 })).toEqual({ input: 0, output: DEFAULT_PRICE.output });
  });
});

describe('cost', () => {
  test('a call costs its tokens at the per-million rates', () => {
    expect(costUsd({ input: 0.15, output: 0.6 }, { promptTokens: 1_000_000, completionTokens: 0 })).toBeCloseTo(0.15);
    expect(costUsd({ input: 10, output: 30 }, { promptTokens: 500, completionTokens: 60 })).toBeCloseTo(0.0068);
  });

  test('the worst case counts every byte as a token and the whole output budget', () => {
    const price = { input: 1, output: 2 };
    // 'héllo' is 6 bytes, plus 4 tokens of message overhead; 60 output tokens at 2 USD/M
    expect(worstCaseCostUsd(price, { messages: ['héllo'], maxTokens: 60 })).toBeCloseTo((10 * 1 + 60 * 2) / 1_000_000);
  });

  test('the default ceiling admits a full-size title prompt for an unknown model', () => {
    // system prompt (~1.7 kB) + the capped visitor text (2.4 k characters, mostly ASCII)
    expect(worstCaseCostUsd(DEFAULT_PRICE, { messages: ['x'.repeat(1700), 'y'.repeat(2600)], maxTokens: 60 })).toBeLessThan(0.05);
  });
});
