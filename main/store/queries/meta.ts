import { queryRow, statement } from '../sql/query.js';
import { sql } from '../sql/sql.js';

/** The meta table: small named values of the data folder (MetaRepository). */

export const metaValue = queryRow(
  (key: string) => sql`SELECT value FROM meta WHERE key = ${key}`,
  (raw: { value: Buffer } | undefined) => raw?.value ?? null,
);

export const setMetaValue = statement(
  (key: string, value: Uint8Array) => sql`INSERT INTO meta (key, value) VALUES (${key}, ${value}) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
);
