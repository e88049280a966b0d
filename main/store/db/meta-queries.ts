import { stmt, type Db } from './database.js';

export function metaValue(db: Db, key: string): Buffer | null {
  const row = stmt(db, 'SELECT value FROM meta WHERE key = ?').get(key) as { value: Buffer } | undefined;
  return row ? row.value : null;
}

export function setMetaValue(db: Db, key: string, value: Uint8Array): void {
  stmt(db, 'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value);
}
