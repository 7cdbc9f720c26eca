import { describe, expect, it } from 'vitest';
import { runCost } from './run-cost.ts';

const price = { input: 1, output: 2 };

describe('runCost', () => {
  it('prices the usage the provider reported', () => {
    expect(runCost(price, { promptTokens: 1_000_000, completionTokens: 500_000, attempts: 1, text: 'x' }, [])).toEqual({
      promptTokens: 1_000_000,
      completionTokens: 500_000,
      costUsd: 2,
      estimated: false,
    });
  });

  it('estimates a run whose provider reported no usage, from the bytes sent on every attempt and received', () => {
    const prompt = [{ role: 'user', content: 'a'.repeat(390) }];
    const cost = runCost(price, { promptTokens: null, completionTokens: null, attempts: 2, text: 'b'.repeat(400) }, prompt);
    expect(cost).toMatchObject({ estimated: true, completionTokens: 100 });
    expect(cost.promptTokens).toBe(2 * Math.ceil(JSON.stringify(prompt).length / 4));
    expect(cost.costUsd).toBeGreaterThan(0);
  });
});
