/**
 * Lua scripts Heed runs with EVAL, in one place so the in-process store
 * (`memory-redis.ts`) can pair each with its JavaScript twin: a script without one fails
 * loudly in the embedded mode's tests instead of behaving differently.
 */

/** Compare-and-delete: only the holder of the lock's token may release it. */
export const RELEASE_LOCK = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

/** Compare-and-extend: only the holder of the lock's token may renew its lease. */
export const EXTEND_LOCK = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;

/**
 * Relays one piece of a streaming reply: writes the text so far (`append` a delta, or `set` a
 * snapshot), keeps it `ARGV[4]` ms, and publishes `ARGV[6]` on channel `ARGV[5]` — unless
 * Redis's own clock has passed the run's time fence `ARGV[1]` (ms since the epoch; '' = none).
 * Checked where the write happens, not before it is sent: a worker frozen between its own
 * check and the command (SIGSTOP, a GC pause) cannot publish once its lease may be over.
 */
export const RELAY_TEXT = `local deadline = tonumber(ARGV[1])
if deadline then
  local t = redis.call('TIME')
  if tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) >= deadline then return 0 end
end
if ARGV[2] == 'append' then redis.call('APPEND', KEYS[1], ARGV[3]) else redis.call('SET', KEYS[1], ARGV[3]) end
redis.call('PEXPIRE', KEYS[1], ARGV[4])
redis.call('PUBLISH', ARGV[5], ARGV[6])
return 1`;
