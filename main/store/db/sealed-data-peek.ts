import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { nativeBinding } from './native-binding.js';

/** What a data folder's database says about its sealed secrets, read without writing anything. */
export interface SealedDataPeek {
  /** The sealed master-key check value (meta `master-key-check`), or null when none was written yet. */
  check: Buffer | null;
  /** Whether any secret is sealed under the master key (access secrets, IPNS keys). */
  sealedRows: boolean;
  /** One sealed access secret, to judge a key by in a folder from before the check value. */
  sampleAccessSecret: { accessKey: string; sealed: Buffer } | null;
}

const NOTHING: SealedDataPeek = { check: null, sealedRows: false, sampleAccessSecret: null };

/**
 * Reads the master-key check and whether sealed secrets exist, on a read-only connection that runs no
 * migration: the master key must be judged before anything is written to the folder (a wrong key must
 * leave the folder exactly as it was). A folder without a database holds nothing sealed.
 */
export function peekSealedData(dbPath: string): SealedDataPeek {
  if (!existsSync(dbPath)) return NOTHING;
  const db = new Database(dbPath, { readonly: true, fileMustExist: true, nativeBinding: nativeBinding() });
  try {
    db.pragma('busy_timeout = 5000');
    const tables = new Set((db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((row) => row.name));
    const check = tables.has('meta')
      ? ((db.prepare("SELECT value FROM meta WHERE key = 'master-key-check'").get() as { value: Buffer } | undefined)?.value ?? null)
      : null;
    const has = (table: string) => tables.has(table) && db.prepare(`SELECT 1 FROM ${table} LIMIT 1`).get() !== undefined;
    const sample = tables.has('access_keys')
      ? (db.prepare('SELECT access_key, secret_sealed FROM access_keys LIMIT 1').get() as { access_key: string; secret_sealed: Buffer } | undefined)
      : undefined;
    return {
      check,
      sealedRows: sample !== undefined || has('ipns_names'),
      sampleAccessSecret: sample ? { accessKey: sample.access_key, sealed: sample.secret_sealed } : null,
    };
  } finally {
    db.close();
  }
}
