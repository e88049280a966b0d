import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, openDatabase } from '../../../main/store/db/database.js';
import { MIGRATIONS } from '../../../main/store/db/migrations/index.js';
import { migratePostgres } from '../../../main/store/pg/migrate.js';
import { PG_MIGRATIONS } from '../../../main/store/pg/migrations/index.js';
import { newAccount } from '../../helpers/account-rows.js';
import { startPostgres, type PostgresServer } from '../../helpers/engines/postgres.js';
import { testPool } from '../../helpers/pg-test-pool.js';
import { SQLITE_QUERIES } from '../../../main/store/db/queries.js';
import { PG_QUERY_MODULES } from '../../../main/store/pg/modules.js';

const sqliteAccounts = SQLITE_QUERIES.accounts;
const pgAccounts = PG_QUERY_MODULES.accounts;

/**
 * Pins made before the PSA's columns (SQLite migration 18, PostgreSQL 4): each gets a random v4 UUID as its
 * requestid, and its created millisecond by its order within its second, so an account's pins keep one
 * `created` each and the order the pin list shows them in.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Account 1: two pins in second 100 and one in 101; account 2: one in 100. Inserted out of id order on purpose. */
const OLD_PINS = [
  { id: 3, account: 1, cid: 'c', createdAt: 101 },
  { id: 1, account: 1, cid: 'a', createdAt: 100 },
  { id: 2, account: 1, cid: 'b', createdAt: 100 },
  { id: 4, account: 2, cid: 'd', createdAt: 100 },
];

interface Migrated {
  id: number;
  request_id: string;
  created_ms: number;
  meta: string;
  origins: string;
}

function expectMigrated(rows: Migrated[]): void {
  expect(rows.map(({ id, created_ms, meta, origins }) => ({ id, created_ms, meta, origins }))).toEqual([
    { id: 1, created_ms: 100_000, meta: '{}', origins: '[]' },
    { id: 2, created_ms: 100_001, meta: '{}', origins: '[]' },
    { id: 3, created_ms: 101_000, meta: '{}', origins: '[]' },
    { id: 4, created_ms: 100_000, meta: '{}', origins: '[]' },
  ]);
  for (const row of rows) expect(row.request_id).toMatch(UUID);
  expect(new Set(rows.map((row) => row.request_id)).size).toBe(rows.length);
}

describe('pin requests migration on SQLite (18)', () => {
  it('gives earlier pins a requestid each and their created millisecond', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pinfold-migration-'));
    const db = openDatabase(join(dir, 'pinfold.db'), { migrations: MIGRATIONS.filter((migration) => migration.version < 18) });
    try {
      sqliteAccounts.insertAccount(db, newAccount({ uuid: 'one' }));
      sqliteAccounts.insertAccount(db, newAccount({ uuid: 'two' }));
      const insert = db.prepare("INSERT INTO pins (id, account_id, cid, status, created_at, updated_at) VALUES (?, ?, ?, 'pinned', ?, ?)");
      for (const pin of OLD_PINS) insert.run(pin.id, pin.account, pin.cid, pin.createdAt, pin.createdAt);
      migrate(db, MIGRATIONS);
      expectMigrated(db.prepare('SELECT id, request_id, created_ms, meta, origins FROM pins ORDER BY id').all() as Migrated[]);
    } finally {
      db.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('pin requests migration on PostgreSQL (4)', () => {
  let server: PostgresServer;
  beforeAll(async () => {
    server = await startPostgres();
  });
  afterAll(() => server.stop());

  it('gives earlier pins a requestid each and their created millisecond', async () => {
    const { pool, close } = testPool(await server.createDatabase('pin_requests'));
    try {
      await migratePostgres(
        pool,
        PG_MIGRATIONS.filter((migration) => migration.version < 4),
      );
      await pgAccounts.insertAccount(pool, newAccount({ uuid: 'one' }));
      await pgAccounts.insertAccount(pool, newAccount({ uuid: 'two' }));
      for (const pin of OLD_PINS) {
        await pool.query("INSERT INTO pins (id, account_id, cid, status, created_at, updated_at) VALUES ($1, $2, $3, 'pinned', $4, $4)", [
          pin.id,
          pin.account,
          pin.cid,
          pin.createdAt,
        ]);
      }
      await migratePostgres(pool, PG_MIGRATIONS);
      const { rows } = await pool.query<{ id: string; request_id: string; created_ms: string; meta: string; origins: string }>(
        'SELECT id, request_id, created_ms, meta, origins FROM pins ORDER BY id',
      );
      expectMigrated(rows.map((row) => ({ ...row, id: Number(row.id), created_ms: Number(row.created_ms) })));
    } finally {
      await close();
    }
  });
});
