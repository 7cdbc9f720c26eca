import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { DEFAULT_LIMITS, resolveLimits } from './site-limits.ts';

describe('resolveLimits', () => {
  it('layers the deployment’s overrides, then the site’s, over the defaults', () => {
    const limits = resolveLimits({ sendBurst: { points: 4, seconds: 10 }, streamsPerIp: 9 }, { sendBurst: { points: 2, seconds: 5 } });
    expect(limits).toEqual({ ...DEFAULT_LIMITS, sendBurst: { points: 2, seconds: 5 }, streamsPerIp: 9 });
  });

  it('ignores what storage holds that is not a valid limit, key by key', () => {
    const stored = { sendBurst: { points: 0, seconds: 5 }, modelRuns: 'many', unknown: 1, streamsPerVisitor: 3 };
    expect(resolveLimits(stored)).toEqual({ ...DEFAULT_LIMITS, streamsPerVisitor: 3 });
    for (const junk of [null, 'x', [], 42]) expect(resolveLimits(junk)).toEqual(DEFAULT_LIMITS);
  });
});

describe('RATE_LIMITS', () => {
  it('is refused at start-up when it is not JSON the limits accept', () => {
    for (const bad of ['{', '{"sendBrust":{"points":1,"seconds":1}}', '{"sendBurst":{"points":-1,"seconds":1}}', '[]']) {
      expect(() => loadConfig({ RATE_LIMITS: bad })).toThrow(/RATE_LIMITS/);
    }
    expect(loadConfig({ RATE_LIMITS: '{"sendBurst":{"points":1,"seconds":1}}' }).RATE_LIMITS).toBeDefined();
  });
});
