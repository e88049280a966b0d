import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { parsePostgresUrl, parseS3Url, type PostgresTarget, type S3Target } from '../../main/base/backend-urls.js';
import type { ServiceConfig } from '../../main/base/config.js';
import { openPostgresStore } from '../../main/store/pg/pg-store.js';
import { startPostgres, type PostgresServer } from './engines/postgres.js';

/**
 * The metadata engine the shared integration suite runs on: `PINFOLD_TEST_DB=postgres` (the
 * `integration-scale-out` project) puts every server started through the test kit on a real PostgreSQL, else
 * the data folder's SQLite file as always. One PostgreSQL per test file, started by the first server that
 * needs it and stopped by test/helpers/suite-database-setup.ts at the file's end; a fresh database per
 * data folder, so a restart over the same folder finds its metadata again.
 */
export type SuiteEngine = 'sqlite' | 'postgres';

export function suiteEngine(): SuiteEngine {
  const chosen = process.env['PINFOLD_TEST_DB'];
  if (chosen === undefined || chosen === '' || chosen === 'sqlite') return 'sqlite';
  if (chosen === 'postgres') return 'postgres';
  throw new Error(`PINFOLD_TEST_DB=${chosen}: expected "postgres" or "sqlite"`);
}

/** The migrated database every test database is copied from: the migrations run once per file, not per server. */
const TEMPLATE = 'suite_template';

interface SuitePostgres {
  server: PostgresServer;
  databases: Map<string, Promise<PostgresTarget>>;
  created: number;
}

let running: Promise<SuitePostgres> | undefined;
let cleanupRegistered = false;

/** Called by the setup file: without it a started PostgreSQL would outlive its test file. */
export function registerSuiteDatabaseCleanup(): void {
  cleanupRegistered = true;
}

async function createDatabase(server: PostgresServer, name: string, template?: string): Promise<string> {
  const client = new pg.Client({ connectionString: server.url });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  } finally {
    await client.end();
  }
  return server.url.replace(/\/postgres$/, `/${name}`);
}

async function startSuitePostgres(): Promise<SuitePostgres> {
  const server = await startPostgres();
  try {
    // Migrated once, then closed: CREATE DATABASE … TEMPLATE needs the template without sessions.
    const template = await openPostgresStore(await createDatabase(server, TEMPLATE), { maxConnections: 1 });
    await template.close();
  } catch (error) {
    await server.stop();
    throw error;
  }
  return { server, databases: new Map(), created: 0 };
}

/** Each data folder's prefix in the suite's bucket: a restart over the same folder finds its blocks again. */
const prefixes = new Map<string, string>();

/**
 * With `PINFOLD_TEST_BLOCKS=s3` (the `integration-scale-out` project), the blocks of the server over
 * `dataDir` go to the run's Ceph RGW (test/helpers/suite-blocks-global.ts), under a prefix of its own;
 * the keys reach the S3 client the way `pinfold serve` takes them, from the AWS variables.
 */
function suiteBlocks(dataDir: string): Pick<ServiceConfig, 'blocks'> {
  if (process.env['PINFOLD_TEST_BLOCKS'] !== 's3') return {};
  const rgw = inject('suiteRgw');
  if (rgw === null || rgw === undefined) throw new Error('PINFOLD_TEST_BLOCKS=s3 needs test/helpers/suite-blocks-global.ts as the project globalSetup');
  process.env['AWS_ACCESS_KEY_ID'] = rgw.accessKeyId;
  process.env['AWS_SECRET_ACCESS_KEY'] = rgw.secretAccessKey;
  let prefix = prefixes.get(dataDir);
  if (prefix === undefined) {
    prefix = randomUUID();
    prefixes.set(dataDir, prefix);
  }
  const blocks: S3Target = parseS3Url(`s3://pinfold-suite/${prefix}/?endpoint=${encodeURIComponent(rgw.endpoint)}&region=${rgw.region}`);
  return { blocks };
}

/**
 * The engines for the server over `dataDir`: on PostgreSQL a fresh database the first time, the same one
 * after, and (PINFOLD_TEST_BLOCKS=s3) its blocks in the run's bucket.
 */
export async function suiteDatabase(dataDir: string): Promise<Pick<ServiceConfig, 'database' | 'blocks'>> {
  if (suiteEngine() === 'sqlite') return {};
  if (!cleanupRegistered) throw new Error('PINFOLD_TEST_DB=postgres needs test/helpers/suite-database-setup.ts in the project setupFiles');
  running ??= startSuitePostgres();
  const suite = await running;
  let database = suite.databases.get(dataDir);
  if (database === undefined) {
    suite.created += 1;
    database = createDatabase(suite.server, `suite_${suite.created}`, TEMPLATE).then(parsePostgresUrl);
    suite.databases.set(dataDir, database);
  }
  return { database: await database, ...suiteBlocks(dataDir) };
}

/** Stops this file's PostgreSQL, if one was started (every server using it must be closed by now). */
export async function stopSuitePostgres(): Promise<void> {
  const started = running;
  running = undefined;
  if (started === undefined) return;
  const suite = await started.catch(() => undefined);
  await suite?.server.stop();
}
