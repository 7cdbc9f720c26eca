/**
 * Lua scripts Heed runs with EVAL, in one place so the in-process store
 * (`memory-redis.ts`) can pair each with its JavaScript twin: a script without one fails
 * loudly in the embedded mode's tests instead of behaving differently.
 */

/** Compare-and-delete: only the holder of the lock's token may release it. */
export const RELEASE_LOCK = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

/** Compare-and-extend: only the holder of the lock's token may renew its lease. */
export const EXTEND_LOCK = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;
