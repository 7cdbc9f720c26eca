import { createHash } from 'node:crypto';
import { isInProcess, type Redis } from './client.ts';

const shas = new Map<string, string>();
const shaOf = (script: string) => {
  let sha = shas.get(script);
  if (!sha) {
    sha = createHash('sha1').update(script).digest('hex');
    shas.set(script, sha);
  }
  return sha;
};

/**
 * Runs one of Heed's Lua scripts (scripts.ts) by its SHA1 (EVALSHA), sending the body
 * (EVAL, which also caches it) only when Redis answers NOSCRIPT: after a restart, a
 * failover or SCRIPT FLUSH. The relay runs one per reply delta; sending its body each time
 * cost a quarter of the client's CPU per call (bench/fanout.ts).
 * @example const relayed = await runScript(redis, RELAY_TEXT, { keys, arguments: args });
 */
export async function runScript(redis: Redis, script: string, opts: { keys: string[]; arguments: string[] }): Promise<unknown> {
  if (isInProcess(redis)) return redis.eval(script, opts);
  try {
    return await redis.evalSha(shaOf(script), opts);
  } catch (err) {
    if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
    return redis.eval(script, opts);
  }
}
