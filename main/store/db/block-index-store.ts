import type { Store } from '../repositories/index.js';
import { openDatabase } from './database.js';
import { blockstoreMigration } from './migrations/002-blockstore.js';
import { sqliteStore } from './sqlite-store.js';

export interface OwnedStore {
  store: Store;
  /** Closes the database under the store; no call may follow. */
  close(): void;
}

/**
 * A block index of its own in the SQLite file at `path` (only the block store migration): for a block store
 * opened without the metadata store (tests, tools), which then owns the file and closes it.
 */
export function openBlockIndexStore(path: string): OwnedStore {
  const db = openDatabase(path, { migrations: [blockstoreMigration] });
  return { store: sqliteStore(db), close: () => db.close() };
}
