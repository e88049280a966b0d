import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountUsage, PinRecord } from '../../shared/api-types.js';
import { parsePostgresUrl } from '../../main/base/backend-urls.js';
import { call, makeTempDir, startTestServer, type TestServer } from '../helpers/test-server.js';
import { startPostgres, type PostgresServer } from '../helpers/engines/postgres.js';
import { uploadCid } from './uploads-helpers.js';

/**
 * `pinfold serve --db postgres://…` (issue "beyond one machine"): the service with its metadata in a real
 * PostgreSQL, blocks still in its data folder. What a client does works as on SQLite, the metadata is in
 * PostgreSQL (a restart on an empty SQLite side finds it), and sync folders are refused with the reason.
 */
describe('the service on PostgreSQL (--db)', () => {
  let postgres: PostgresServer;
  let url: string;
  let dataDir: string;
  let server: TestServer;

  beforeAll(async () => {
    postgres = await startPostgres();
    url = await postgres.createDatabase('serve');
    dataDir = await makeTempDir('pinfold-pg-serve-');
    server = await startTestServer({ dataDir, database: parsePostgresUrl(url) });
  });
  afterAll(async () => {
    await server?.stop();
    await postgres?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('uploads, pins, lists and serves content, with the usage counted in PostgreSQL', async () => {
    const bytes = randomBytes(64 * 1024);
    const cid = await uploadCid(server, server.owner, bytes);
    const added = await call<{ data: PinRecord }>(server, 'POST', '/api/v0/pin/add', { key: server.owner, query: { arg: cid, name: 'on postgres' } });
    expect(added.status).toBe(200);
    const listed = await call<{ data: PinRecord[]; total: number }>(server, 'GET', '/api/v0/pin', { key: server.owner });
    expect(listed.json.data.map((pin) => [pin.cid, pin.name, pin.status])).toEqual([[cid, 'on postgres', 'pinned']]);
    const served = await fetch(`${server.url}/ipfs/${cid}?ts=${Math.floor(Date.now() / 1000)}`, {
      headers: { 'X-Access-Key': server.owner.access_key, 'X-Access-Secret': server.owner.access_secret },
    });
    expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);
    const stats = await call<{ data: AccountUsage }>(server, 'GET', '/api/v0/stats', { key: server.owner });
    expect(stats.json.data).toMatchObject({ pinned_count: 1, ingress: bytes.byteLength });

    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const rows = await client.query<{ cid: string }>('SELECT cid FROM pins');
      expect(rows.rows.map((row) => row.cid)).toEqual([cid]);
    } finally {
      await client.end();
    }
  });

  it('refuses sync folders (and following one) with 409 and says why', async () => {
    for (const [method, path] of [
      ['GET', '/api/v0/sync'],
      ['POST', '/api/v0/sync/add'],
      ['POST', '/api/v0/sync/follow'],
      ['POST', '/api/v0/sync/discard'],
      ['GET', '/api/v0/sync/versions'],
    ] as const) {
      const refused = await call<{ code: number; msg: string }>(server, method, path, {
        key: server.owner,
        body: method === 'POST' ? { path: dataDir } : undefined,
      });
      expect(refused.status, path).toBe(409);
      expect(refused.json.msg).toMatch(/single-instance feature.*PostgreSQL \(--db\)/);
    }
  });

  it('keeps the metadata across a restart: the pins are in PostgreSQL, not in the data folder', async () => {
    await server.stop();
    server = await startTestServer({ dataDir, database: parsePostgresUrl(url) });
    const listed = await call<{ data: PinRecord[]; total: number }>(server, 'GET', '/api/v0/pin', { key: server.owner });
    expect(listed.json.total).toBe(1);
    expect(listed.json.data[0]?.name).toBe('on postgres');
  });
});
