import type pg from 'pg';
import type { PgMigration } from './migrations/migration.js';

/** The advisory lock key the instances migrate under ('pinfold' as ASCII): one migrates, the others wait. */
const MIGRATION_LOCK = 0x70696e666f6c64;

/**
 * Brings the database to the newest schema: each migration not yet applied runs in a transaction of its
 * own, in version order, while this session holds the migration lock, so several instances starting at
 * once migrate the database exactly once and none of them serves an older schema.
 */
export async function migratePostgres(pool: pg.Pool, migrations: readonly PgMigration[]): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await client.query('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)');
      const applied = new Set((await client.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map((r) => r.version));
      for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
        if (applied.has(migration.version)) continue;
        await client.query('BEGIN');
        try {
          await client.query(migration.sql);
          await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [
            migration.version,
            migration.name,
            Math.floor(Date.now() / 1000),
          ]);
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK');
          throw error;
        }
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    client.release();
  }
}
