import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../main/store/db/database.js';
import { migratePostgres } from '../../../main/store/pg/migrate.js';
import { PG_MIGRATIONS } from '../../../main/store/pg/migrations/index.js';
import { startPostgres, type PostgresServer } from '../../helpers/engines/postgres.js';
import { testPool } from '../../helpers/pg-test-pool.js';
import { normalizeExpression, postgresSchema, sqliteSchema } from '../../helpers/schema-shape.js';

/**
 * The schema is written twice (store/db/migrations, store/pg/migrations); the queries once (store/queries),
 * so the two must agree. Both engines migrated from empty, every table, column (by the type the mappers
 * read), key, index, unique and check constraint, default and foreign key compared; the differences
 * allowed are these, each with why. A migration on one engine alone fails here until its twin is written.
 */
const ONLY_SQLITE = [
  // ALTER TABLE … ADD COLUMN … NOT NULL needs a default in SQLite (migration 18); insertPin always gives both.
  'pins column created_ms integer not null default 0',
  "pins column request_id text not null default ''",
];

const ONLY_POSTGRES = [
  // The same two columns without SQLite's defaults (see above).
  'pins column created_ms integer not null',
  'pins column request_id text not null',
  // SQLite's rowid, the insertion order that breaks ties of created_at in a listing (dialects.ts's insertionOrder).
  'access_keys column seq integer not null',
  'sync_folders column insert_order integer not null',
  'sync_folders unique (insert_order)',
  // Instances that start at once cannot both create the owner; SQLite's one writer checks and creates it in one transaction.
  'accounts unique index accounts_one_owner (is_owner) where is_owner = 1',
];

describe('the two engines’ schemas', () => {
  let server: PostgresServer;
  beforeAll(async () => {
    server = await startPostgres();
  });
  afterAll(() => server.stop());

  it('agree, migrated from empty, but for the differences listed', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pinfold-schema-'));
    const db = openDatabase(join(dir, 'pinfold.db'));
    const sqlite = sqliteSchema(db);
    db.close();
    await rm(dir, { recursive: true, force: true });
    const { pool, close } = testPool(await server.createDatabase('schema'));
    await migratePostgres(pool, PG_MIGRATIONS);
    const postgres = await postgresSchema(pool);
    await close();
    // Not vacuous: every table with its columns, keys and indexes is read.
    expect(sqlite).toContain('accounts column balance_cents integer not null default 0');
    expect(postgres).toContain('sync_entries primary key (folder_id, path_key)');
    expect(postgres).toContain('sync_batches check unique_bytes is null or unique_bytes >= 0');
    expect(postgres).toContain('folder_members foreign key (cid) references folder_roots on delete cascade');
    expect(sqlite.filter((fact) => !postgres.includes(fact))).toEqual([...ONLY_SQLITE].sort());
    expect(postgres.filter((fact) => !sqlite.includes(fact))).toEqual([...ONLY_POSTGRES].sort());
  });

  it('are read in one spelling: PostgreSQL’s ANY (ARRAY[…]), casts and parentheses as SQLite writes them', () => {
    expect(normalizeExpression("((kind = ANY (ARRAY['plan_fee'::text, 'credit'::text])))")).toBe(normalizeExpression("kind IN ('plan_fee', 'credit')"));
    expect(normalizeExpression('(((unique_bytes IS NULL) OR (unique_bytes >= 0)))')).toBe('unique_bytes is null or unique_bytes >= 0');
    expect(normalizeExpression("'[]'::text")).toBe("'[]'");
  });
});
