/**
 * `npm run admin:create -- --email you@example.com [--name "Your Name"]`: creates the console
 * owner with that email, or makes an existing operator an owner and sets their password
 * (which signs their sessions out). The password never comes from the command line (shell
 * history, `ps`): on a terminal it is asked for twice without echo; piped, the first line of
 * stdin is read, so scripts can do `printf '%s\n' "$PASSWORD" | npm run admin:create -- --email …`.
 * Uses DATABASE_URL like the API; outside production it applies pending migrations first,
 * as `npm start` would.
 */
import { openStores } from '../api/src/embedded/stores.ts';
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { type Config, loadConfig } from '../api/src/config.ts';
import { EventBus } from '../api/src/events/event-bus.ts';
import { accessChanged } from '../api/src/operators/access-changed.ts';
import { createRedis, isMemoryRedisUrl, keys } from '../api/src/redis/client.ts';
import { createDb } from '../api/src/db/client.ts';
import { migrate, pendingMigrationNames } from '../api/src/db/migrate.ts';
import { newPassword, operatorEmail, operatorName } from '../api/src/operators/operator-inputs.ts';
import { upsertOwner } from '../api/src/operators/upsert-owner.ts';

const args = z.object({ email: operatorEmail, name: operatorName.optional() });

/** Asks on the terminal with echo off: readline reads keys in raw mode and echoes into a stream that drops them. */
function askHidden(prompt: string): Promise<string> {
  const muted = new Writable({ write: (_chunk, _enc, done) => done() });
  const rl = createInterface({ input: process.stdin, output: muted, terminal: true });
  process.stdout.write(prompt);
  return new Promise((resolve) => {
    rl.question('', (answer) => {
      rl.close();
      process.stdout.write('\n');
      resolve(answer);
    });
    rl.on('SIGINT', () => {
      process.stdout.write('\n');
      process.exit(130);
    });
  });
}

/** The first line of piped stdin (without its line ending). */
async function firstLineOfStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').split(/\r?\n/)[0] ?? '';
}

async function readPassword(): Promise<string> {
  if (!process.stdin.isTTY) return firstLineOfStdin();
  const first = await askHidden('Password (12+ characters): ');
  const second = await askHidden('Password again: ');
  if (first !== second) throw new Error('the two passwords differ');
  return first;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { email: { type: 'string' }, name: { type: 'string' } }, strict: true });
  const parsedArgs = args.safeParse(values);
  if (!parsedArgs.success)
    throw new Error(`usage: npm run admin:create -- --email you@example.com [--name "Your Name"] (${z.prettifyError(parsedArgs.error)})`);
  const password = newPassword.safeParse(await readPassword());
  if (!password.success) throw new Error(`password ${password.error.issues[0]?.message ?? 'not accepted'}`);

  const config = loadConfig();
  // DATABASE_URL, or the embedded database (while no Heed process runs on it)
  const stores = await openStores({ ...config, REDIS_URL: '' }, { role: 'script' });
  const databaseUrl = stores.databaseUrl;
  const db = createDb(databaseUrl, { max: 1 });
  try {
    if (config.NODE_ENV === 'production') {
      const pending = await pendingMigrationNames(databaseUrl);
      if (pending.length > 0) throw new Error(`migrations are pending (${pending.join(', ')}): run npm run db:migrate first`);
    } else {
      await migrate(databaseUrl);
    }
    const { email, name } = parsedArgs.data;
    const { outcome, signedOut } = await upsertOwner(db, { email, name, password: password.data });
    if (signedOut) await tellOpenStreams(config, signedOut);
    const what = {
      created: 'created',
      updated: 'updated (now an owner with this password; their sessions were signed out)',
      unchanged: 'unchanged (already an owner with this password)',
    }[outcome];
    console.log(`[heed] console owner ${email} ${what}: sign in at /admin`);
  } finally {
    await db.$disconnect();
    await stores.close();
  }
}

/**
 * With REDIS_URL set, the running processes hear that this owner's sessions ended, so their
 * open console streams close at once (without it, at each stream's own check within 30 s).
 */
async function tellOpenStreams(config: Config, operatorId: string): Promise<void> {
  if (!config.REDIS_URL || isMemoryRedisUrl(config.REDIS_URL)) return;
  const redis = await createRedis(config.REDIS_URL, 'heed-admin-create');
  try {
    await accessChanged(
      new EventBus(redis, redis, keys(config.REDIS_PREFIX), (err) => console.warn(`[heed] open console streams not told: ${String(err)}`)),
      [operatorId],
    );
  } finally {
    await redis.close();
  }
}

main().catch((err: unknown) => {
  console.error(`[heed] admin:create: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
