import { loadConfig, type Config } from './config.ts';
import { migrate, pendingMigrationNames } from './db/migrate.ts';
import { seedDemoSite } from './db/seed-demo.ts';
import type { Logger } from './logging/logger.ts';
import { processLogger } from './logging/process-logger.ts';
import { startModelServer } from './model-server/server.ts';
import { createServices, type Services } from './services.ts';
import { openStores } from './embedded/stores.ts';
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
    throw new Error(
      'No model configured in production: set OPENAI_API_KEY (and OPENAI_BASE_URL for another provider), or HEED_DEMO_MODEL=1 to answer with the demo model on purpose.',
    );
  }
  // one root logger for the process, made first so migration lines are structured too
  const logger = (await processLogger(config)).child({ role: opts.role });
  const log = (line: string) => logger.info(line);
  // where the data lives and how processes coordinate: servers when configured, else embedded
  const stores = await openStores(config, { role: opts.role, log, warn: (line) => logger.warn(line) });
  config = { ...config, DATABASE_URL: stores.databaseUrl, REDIS_URL: stores.redisUrl };
  logger.info({ embeddedDatabase: stores.embeddedDatabase, inProcessCoordination: stores.inProcessCoordination }, stores.summary);
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
    const model = await startModelServer({ record: false });
    config = { ...config, OPENAI_BASE_URL: model.url, OPENAI_MODEL: 'heed-local' };
    closeModel = () => model.close();
    logger.warn({ modelUrl: model.url }, 'no OPENAI_API_KEY or OPENAI_BASE_URL set: replies come from the local demo model');
  }

  const services = await createServices(config, { logger, embeddedDatabase: stores.embeddedDatabase });
  logger.info(services.files.summary);
  // Title generations a crashed process left behind go back to their previous state at once.
  const recovered = await recoverTitleLeases(services.db);
  if (recovered > 0) logger.info({ recovered }, `recovered ${recovered} interrupted title generation(s)`);
  if (opts.role === 'api') await seedDemoSite(services.db, config.DEMO_SITE_KEY);
  return {
    services,
    close: async () => {
      await services.close();
      await closeModel();
      await stores.close();
    },
  };
}

/** Runs `stop` once on SIGINT/SIGTERM, then exits; `logger` (the process's) notes the signal and a failed stop. */
export function onShutdown(stop: () => Promise<void>, logger: Logger): void {
  let stopping = false;
  const handler = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    // runs hand their batches over at once (stop({ release: true })), so this bound is rarely reached
    const force = setTimeout(() => process.exit(1), 25_000);
    force.unref();
    stop().then(
      () => process.exit(0),
      (err) => (logger.error({ err }, 'shutdown failed'), process.exit(1)),
    );
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
