import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratePostgres } from '../../../main/store/pg/migrate.js';
import { PG_MIGRATIONS } from '../../../main/store/pg/migrations/index.js';
import { PG_QUERY_MODULES } from '../../../main/store/pg/modules.js';
import { newAccount } from '../../helpers/account-rows.js';
import { startPostgres, type PostgresServer } from '../../helpers/engines/postgres.js';
import { testPool } from '../../helpers/pg-test-pool.js';

describe('names public flag migration on PostgreSQL (8)', () => {
  let server: PostgresServer;
  beforeAll(async () => {
    server = await startPostgres();
  });
  afterAll(() => server.stop());

  it('keeps each name public or not, now as 1 or 0, and the public ones on their index', async () => {
    const { pool, close } = testPool(await server.createDatabase('names_public'));
    try {
      await migratePostgres(
        pool,
        PG_MIGRATIONS.filter((migration) => migration.version < 8),
      );
      const accountId = await PG_QUERY_MODULES.accounts.insertAccount(pool, newAccount({ uuid: 'one' }));
      for (const [name, isPublic] of [
        ['k51-private', false],
        ['k51-public', true],
      ] as const) {
        await pool.query(
          `INSERT INTO ipns_names (account_id, name, key_type, key_sealed, value, seq, record, created_at, publish_at, public)
           VALUES ($1, $2, 'Ed25519', '\\x00', '/ipfs/x', 0, '\\x00', 1, 1, $3)`,
          [accountId, name, isPublic],
        );
      }
      await migratePostgres(pool, PG_MIGRATIONS);
      const { rows } = await pool.query<{ name: string; public: number }>('SELECT name, public FROM ipns_names ORDER BY name');
      expect(rows).toEqual([
        { name: 'k51-private', public: 0 },
        { name: 'k51-public', public: 1 },
      ]);
      expect((await PG_QUERY_MODULES.names.publicNamesAfter(pool, 0, 10)).map((row) => [row.name, row.public])).toEqual([['k51-public', true]]);
      await expect(pool.query("UPDATE ipns_names SET public = 2 WHERE name = 'k51-public'")).rejects.toMatchObject({ code: '23514' });
    } finally {
      await close();
    }
  });
});
