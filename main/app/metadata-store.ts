import type { ServiceConfig } from '../base/config.js';
import { openDatabase } from '../store/db/database.js';
import { sqliteStore } from '../store/db/sqlite-store.js';
import type { PostgresCoordination } from '../store/pg/coordination.js';
import type { Store } from '../store/repositories/index.js';

/** The metadata the service runs on, and how to let go of it when the service stops. */
export interface MetadataStore {
  store: Store;
  /** `sqlite`: the data folder's file (the desktop's, and the default); `postgres`: `--db`, the scale-out mode. */
  engine: 'sqlite' | 'postgres';
  /** PostgreSQL only: the locks, the GC leader and the change channel that several instances share. */
  coordination: PostgresCoordination | null;
  /** An account or usage row changed, as the database announced it: the store drops its copy (PostgreSQL). */
  rowChanged(kind: 'account' | 'usage', accountId: number): void;
  /** The announcements may have been missed: the store drops every copy (PostgreSQL). */
  rowsMissed(): void;
  close(): Promise<void>;
}

/** Opens the engine the config names: PostgreSQL with `--db`, else the data folder's SQLite file. */
export async function openMetadataStore(config: ServiceConfig, databasePath: string): Promise<MetadataStore> {
  if (config.database !== undefined) {
    // Loaded only in the scale-out mode: the pg driver is megabytes of heap the embedded service never uses.
    const [{ openPostgresStore }, { postgresCoordination }] = await Promise.all([import('../store/pg/pg-store.js'), import('../store/pg/coordination.js')]);
    const store = await openPostgresStore(config.database.url);
    const coordination = postgresCoordination(config.database.url);
    return {
      store,
      engine: 'postgres',
      coordination,
      rowChanged: (kind, accountId) => store.rowChanged(kind, accountId),
      rowsMissed: () => store.rowsMissed(),
      async close() {
        await coordination.close();
        await store.close();
      },
    };
  }
  const db = openDatabase(databasePath);
  return {
    store: sqliteStore(db),
    engine: 'sqlite',
    coordination: null,
    // One process writes the file: its store's copies follow its own writes.
    rowChanged: () => undefined,
    rowsMissed: () => undefined,
    close: async () => void db.close(),
  };
}
