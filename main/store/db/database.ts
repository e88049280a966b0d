import Database from 'better-sqlite3';
import { SQLITE_LOWER_FUNCTION } from '../sql/dialects.js';
import { MIGRATIONS, type Migration } from './migrations/index.js';
import { nativeBinding } from './native-binding.js';

/**
 * The metadata database. Only main/store/db imports better-sqlite3; domains reach it through the
 * repositories (sqlite-store.ts), whose queries store/queries writes once for both engines. All statements are synchronous, so a function that runs
 * inside {@link inTransaction} cannot be interleaved with another request's writes.
 */
export type Db = Database.Database;

export interface OpenOptions {
  readonly?: boolean;
  migrations?: readonly Migration[];
}

export function openDatabase(path: string, options: OpenOptions = {}): Db {
  const db = new Database(path, { readonly: options.readonly ?? false, nativeBinding: nativeBinding() });
  db.pragma('busy_timeout = 5000');
  if (!options.readonly) {
    db.pragma('journal_mode = WAL');
    // NORMAL under WAL is durable across process crashes; a power cut may lose the last commits, never corrupt.
    db.pragma('synchronous = NORMAL');
  }
  db.pragma('foreign_keys = ON');
  db.function(SQLITE_LOWER_FUNCTION, { deterministic: true }, unicodeLower);
  if (!options.readonly) migrate(db, options.migrations ?? MIGRATIONS);
  return db;
}

function unicodeLower(value: unknown): unknown {
  return typeof value === 'string' ? value.toLowerCase() : value;
}

export function migrate(db: Db, migrations: readonly Migration[]): void {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL) STRICT');
  const applied = new Set((db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map((row) => row.version));
  const ordered = [...migrations].sort((a, b) => a.version - b.version);
  for (const migration of ordered) {
    if (applied.has(migration.version)) continue;
    db.transaction(() => {
      db.exec(migration.sql);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
        migration.version,
        migration.name,
        Math.floor(Date.now() / 1000),
      );
    })();
  }
}

/** Runs `fn` in one IMMEDIATE transaction: all its writes land together or none do. */
export function inTransaction<T>(db: Db, fn: () => T): T {
  return db.transaction(fn).immediate();
}

/** better-sqlite3 errors carry a stable `.code`; never sort them by message. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

const statementCache = new WeakMap<Db, Map<string, Database.Statement>>();
const writeEpochs = new WeakMap<Db, number>();

/**
 * A prepared statement, compiled once per database handle: hot paths must not re-parse SQL per request.
 * Handing out a writing statement moves the handle's write epoch (callers run it at once, in the same
 * expression), which is how read-cache.ts knows this connection may have changed something. A write is
 * any statement that is not read-only, also one that answers rows (`INSERT … RETURNING`).
 */
export function stmt(db: Db, sql: string): Database.Statement {
  let cache = statementCache.get(db);
  if (!cache) {
    cache = new Map();
    statementCache.set(db, cache);
  }
  let statement = cache.get(sql);
  if (!statement) {
    statement = db.prepare(sql);
    cache.set(sql, statement);
  }
  if (!statement.readonly) writeEpochs.set(db, (writeEpochs.get(db) ?? 0) + 1);
  return statement;
}

/** Moves on every write statement handed out by {@link stmt} on this handle. */
export function writeEpoch(db: Db): number {
  return writeEpochs.get(db) ?? 0;
}
