import { randomUUID } from 'node:crypto';

/**
 * Which stores this test run uses. `HEED_EMBEDDED=1` forces the embedded mode (an embedded
 * PostgreSQL started by the global setup, and in-process coordination); otherwise the global
 * setup uses the PostgreSQL and Redis servers when they answer and sets `HEED_EMBEDDED=1`
 * itself when they do not, so workers (forked after it) agree.
 */
export const isEmbeddedTestRun = () => process.env.HEED_EMBEDDED === '1';

/**
 * The coordination store of one test stack: its own in-process store in the embedded mode
 * (a unique name, so stacks of one file never share locks or channels), else the Redis server.
 */
export const testRedisUrl = () =>
  isEmbeddedTestRun() ? `memory://test-${randomUUID().slice(0, 8)}` : process.env.REDIS_URL || 'redis://127.0.0.1:6379';
