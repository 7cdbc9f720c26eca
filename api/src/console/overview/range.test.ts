import { expect, test } from 'vitest';
import { planBuckets } from './range.ts';

test('24h is the current UTC hour and the 23 before it', () => {
  const plan = planBuckets('24h', new Date('2026-12-01T10:30:15Z'));
  expect(plan).toEqual({
    bucket: 'hour',
    stepSeconds: 3600,
    count: 24,
    start: new Date('2026-11-30T11:00:00Z'),
    end: new Date('2026-12-01T11:00:00Z'),
  });
});

test('7d and 30d are whole UTC days ending with today, across month ends', () => {
  const now = new Date('2026-03-02T00:00:00Z');
  expect(planBuckets('7d', now)).toMatchObject({
    bucket: 'day',
    count: 7,
    start: new Date('2026-02-24T00:00:00Z'),
    end: new Date('2026-03-03T00:00:00Z'),
  });
  expect(planBuckets('30d', now)).toMatchObject({ bucket: 'day', count: 30, start: new Date('2026-02-01T00:00:00Z') });
});

test('a moment exactly on a boundary starts the new bucket', () => {
  expect(planBuckets('24h', new Date('2026-12-01T10:00:00Z')).end).toEqual(new Date('2026-12-01T11:00:00Z'));
  expect(planBuckets('7d', new Date('2026-12-01T23:59:59.999Z')).end).toEqual(new Date('2026-12-02T00:00:00Z'));
});
