import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import type { ServiceFacts } from '../../shared/api-types.js';
import { createApp, type OwnerKey, type PinfoldApp } from '../../main/app/create-app.js';
import { parsePostgresUrl } from '../../main/base/backend-urls.js';
import type { ServiceConfig } from '../../main/base/config.js';
import { testConfig } from '../helpers/test-network.js';
import { call } from '../helpers/test-server.js';

/** Several instances of the service on one PostgreSQL database, each with its own data folder, in this process. */

export interface Instance {
  app: PinfoldApp;
  url: string;
  dataDir: string;
}

export async function startInstance(databaseUrl: string, dataDir: string, overrides: Partial<ServiceConfig> = {}): Promise<Instance> {
  const app = await createApp({ config: testConfig({ port: 0, dataDir, database: parsePostgresUrl(databaseUrl), ...overrides }), env: {} });
  try {
    return { app, url: await app.listen(), dataDir };
  } catch (error) {
    await app.close();
    throw error;
  }
}

/** A shared master key as `--master-key-file` takes it: 32 random bytes in base64, mode 0600. */
export async function writeMasterKeyFile(dir: string, mode = 0o600): Promise<string> {
  const path = join(dir, 'shared-master.key');
  await writeFile(path, `${randomBytes(32).toString('base64')}\n`, { mode });
  return path;
}

/** One query on its own connection (what another machine's psql would see). */
export async function queryDatabase<T extends pg.QueryResultRow>(url: string, sql: string, args: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, args)).rows;
  } finally {
    await client.end();
  }
}

/** Advisory lock requests that wait right now (an instance blocked on the GC lock shows here). */
export async function waitingAdvisoryLocks(url: string): Promise<number> {
  const rows = await queryDatabase<{ waiting: string }>(url, "SELECT count(*) AS waiting FROM pg_locks WHERE locktype = 'advisory' AND NOT granted");
  return Number(rows[0]?.waiting ?? 0);
}

export async function leadsGc(server: { url: string }, owner: OwnerKey): Promise<boolean> {
  const facts = await call<{ data: ServiceFacts }>(server, 'GET', '/api/v0/service', { key: owner });
  if (facts.status !== 200) throw new Error(`service facts answered ${facts.status}: ${facts.text}`);
  return facts.json.data.gc_leader;
}
