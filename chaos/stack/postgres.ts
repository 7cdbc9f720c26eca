import pg from 'pg';
import { migrate } from '../../api/src/db/migrate.ts';
import { processAlive } from '../../api/src/embedded/process-alive.ts';

const PREFIX = 'heed_chaos_';

export interface ChaosDatabase {
  name: string;
  url: string;
  /** ends every connection the app processes hold to this database; returns how many */
  terminateBackends(): Promise<number>;
  drop(): Promise<void>;
}

/**
 * A fresh database for one run, migrated as a release step (`npm run db:migrate` does the same),
 * so the processes start in production mode with nothing pending. Databases of earlier runs whose
 * process is gone are dropped first (a crashed run cannot drop its own).
 */
export async function createChaosDatabase(serverUrl: string): Promise<ChaosDatabase> {
  await dropLeftovers(serverUrl);
  const name = `${PREFIX}${Date.now().toString(36)}_${process.pid.toString(36)}`;
  const url = urlOf(serverUrl, name);
  await migrate(url); // creates the database, then applies every migration
  return {
    name,
    url,
    terminateBackends: () =>
      withAdmin(serverUrl, async (admin) => {
        const { rows } = await admin.query<{ pid: number }>(
          `SELECT pg_terminate_backend(pid), pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`,
          [name],
        );
        return rows.length;
      }),
    drop: () =>
      withAdmin(serverUrl, (admin) =>
        admin.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`).then(() => undefined),
      ),
  };
}

async function dropLeftovers(serverUrl: string): Promise<void> {
  await withAdmin(serverUrl, async (admin) => {
    const { rows } = await admin.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE 'heed\\_chaos\\_%'`);
    for (const { datname } of rows) {
      const pid = parseInt(datname.split('_').at(-1) ?? '', 36);
      if (Number.isFinite(pid) && processAlive(pid)) continue;
      await admin.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(datname)} WITH (FORCE)`);
    }
  });
}

async function withAdmin<T>(serverUrl: string, work: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: urlOf(serverUrl, 'postgres'), application_name: 'heed-chaos' });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}

function urlOf(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
