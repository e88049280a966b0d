import { row, type Queryable } from './queryable.js';

/** The meta table (migration 1): the PostgreSQL side of MetaRepository. */
export async function metaValue(q: Queryable, key: string): Promise<Buffer | null> {
  return (await row<{ value: Buffer }>(q, 'SELECT value FROM meta WHERE key = $1', [key]))?.value ?? null;
}

export async function setMetaValue(q: Queryable, key: string, value: Uint8Array): Promise<void> {
  await q.query('INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value', [key, Buffer.from(value)]);
}
