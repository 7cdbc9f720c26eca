import { loadConfig, type Config } from './config.ts';
import { migrate, pendingMigrationNames } from './db/migrate.ts';
import { seedDemoSite } from './db/seed-demo.ts';
import { startModelServer } from './model-server/server.ts';
import { createServices, type Services } from './services.ts';
import { recoverTitleLeases } from './titles/title-claims.ts';

/**
 * What every process does first: validate the environment, bring the database schema up
 * to date (concurrent starters are safe; in production only with HEED_AUTO_MIGRATE=1, otherwise
 * a pending migration refuses the start), connect, and recover title generations whose
 * lease expired. Without any model configured, a local demo model answers so the product
 * works on a fresh machine — except in production, where that is refused unless
 * HEED_DEMO_MODEL=1 asks for it.
 */
export async function boot(opts: { role: 'api' | 'worker' }): Promise<{ services: Services; close: () => Promise<void> }> {
  let config: Config = loadConfig();
  const noModel = !config.OPENAI_API_KEY && !config.OPENAI_BASE_URL;
  // Real visitors must never be answered by the echoing demo model by accident.
  if (noModel && config.NODE_ENV === 'production' && config.HEED_DEMO_MODEL !== '1') {
    throw new Error('No model configured in production: set OPENAI_API_KEY (and OPENAI_BASE_URL for another provider), or HEED_DEMO_MODEL=1 to answer with the demo model on purpose.');
  }
  const log = (line: string) => console.log(`[heed] ${line}`);
  // Production changes its schema in a release step (`npm run db:migrate`), so a rollout never
  // migrates under the previous version's processes by accident.
  if (config.NODE_ENV === 'production' && config.HEED_AUTO_MIGRATE !== '1') {
    const pending = await pendingMigrationNames(config.DATABASE_URL, { log });
    if (pending.length > 0) {
      const count = pending.length === 1 ? '1 migration is' : `${pending.length} migrations are`;
      throw new Error(`${count} pending (${pending.join(', ')}): run npm run db:migrate, or set HEED_AUTO_MIGRATE=1`);
    }
  } else {
    await migrate(config.DATABASE_URL, { log });
  }

  let closeModel = async () => {};
  if (noModel) {
    const model = await startModelServer();
    config = { ...config, OPENAI_BASE_URL: model.url, OPENAI_MODEL: 'heed-local' };
    closeModel = () => model.close();
    console.warn(`[heed] no OPENAI_API_KEY or OPENAI_BASE_URL set: replies come from the local demo model at ${model.url}`);
  }

  const services = await createServices(config);
  // Title generations a crashed process left behind go back to their previous state at once.
  const recovered = await recoverTitleLeases(services.db);
  if (recovered > 0) console.log(`[heed] recovered ${recovered} interrupted title generation(s)`);
  if (opts.role === 'api') await seedDemoSite(services.db, config.DEMO_SITE_KEY);
  return {
    services,
    close: async () => {
      await services.close();
      await closeModel();
    },
  };
}

/** Runs `stop` once on SIGINT/SIGTERM, then exits. */
export function onShutdown(stop: () => Promise<void>): void {
  let stopping = false;
  const handler = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`[heed] ${signal}: shutting down`);
    // runs hand their batches over at once (stop({ release: true })), so this bound is rarely reached
    const force = setTimeout(() => process.exit(1), 25_000);
    force.unref();
    stop().then(() => process.exit(0), (err) => (console.error(err), process.exit(1)));
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
}

/**
 * Ends a process that cannot start with its reason, one line per problem and no stack
 * trace: a configuration refusal is for the person deploying, not a crash to debug.
 */
export function exitWith(err: unknown): never {
  const message = err instanceof Error ? err.message : String(err);
  console.error(`[heed] cannot start: ${message}`);
  process.exit(1);
}
