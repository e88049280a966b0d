import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { asEngineUser, engineUser, freePort, runToEnd, waitUntil } from './processes.js';

/**
 * A real PostgreSQL server for one test file: initdb into a temporary folder, the server on a random
 * loopback port (its socket in that folder too), stopped and deleted at the end. Durability settings are
 * off (fsync, synchronous commit, full-page writes): the tests kill Pinfold's processes, never the
 * database's, and the server runs several times faster without them.
 */
export interface PostgresServer {
  /** postgres://… of the `postgres` database, for the superuser `pinfold` (trust authentication). */
  readonly url: string;
  /** Makes a new, empty database and answers its URL: one per test keeps them apart. */
  createDatabase(name: string): Promise<string>;
  stop(): Promise<void>;
}

/** Debian keeps the server programs under /usr/lib/postgresql/<major>/bin; the newest major wins. */
export function postgresBinDir(): string {
  const root = '/usr/lib/postgresql';
  const majors = existsSync(root)
    ? readdirSync(root)
        .filter((name) => /^\d+$/.test(name) && existsSync(join(root, name, 'bin', 'postgres')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  const major = majors[0];
  if (major === undefined) throw new Error('PostgreSQL server programs not found under /usr/lib/postgresql (Debian: apt-get install postgresql)');
  return join(root, major, 'bin');
}

const READY_WITHIN_MS = 30_000;

export async function startPostgres(): Promise<PostgresServer> {
  const bin = postgresBinDir();
  const home = await mkdtemp(join(tmpdir(), 'pinfold-pg-'));
  const data = join(home, 'data');
  // PostgreSQL refuses to run as root: as root (CI), the folder goes to an unprivileged user that runs it.
  const user = engineUser();
  if (user !== undefined) await chown(home, user.uid, user.gid);
  await runToEnd(asEngineUser(join(bin, 'initdb'), ['-D', data, '-U', 'pinfold', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync'], user));
  const port = await freePort();
  const [command, args] = asEngineUser(
    join(bin, 'postgres'),
    ['-D', data, '-k', home, '-h', '127.0.0.1', '-p', String(port), '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'],
    user,
  );
  const child: ChildProcess = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    log = (log + chunk.toString('utf8')).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `postgres://pinfold@127.0.0.1:${port}/postgres`;
  try {
    await waitUntil('PostgreSQL to accept connections', READY_WITHIN_MS, async () => {
      if (child.exitCode !== null) throw new Error(`postgres exited with ${child.exitCode}: ${log}`);
      const client = new pg.Client({ connectionString: url });
      try {
        await client.connect();
        await client.query('SELECT 1');
        return true;
      } catch {
        return false;
      } finally {
        await client.end().catch(() => undefined);
      }
    });
  } catch (error) {
    child.kill('SIGKILL');
    await exited;
    await rm(home, { recursive: true, force: true });
    throw error;
  }
  return {
    url,
    async createDatabase(name) {
      if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain database name: ${name}`);
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      return `postgres://pinfold@127.0.0.1:${port}/${name}`;
    },
    async stop() {
      // SIGINT is PostgreSQL's fast shutdown: open sessions are ended, nothing is waited for.
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
      await exited;
      await rm(home, { recursive: true, force: true });
    },
  };
}
