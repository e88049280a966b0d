import { stmt, type Db } from './database.js';
import type { AccessKeyRow } from '../repositories/keys.js';

/** Row mappers and typed statements for access keys. */
interface RawKey {
  access_key: string;
  account_id: number;
  name: string;
  permissions: string;
  secret_sealed: Buffer;
  created_at: number;
  expires_at: number | null;
}

function toKey(raw: RawKey): AccessKeyRow {
  return {
    accessKey: raw.access_key,
    accountId: raw.account_id,
    name: raw.name,
    permissions: raw.permissions === '' ? [] : raw.permissions.split(','),
    secretSealed: raw.secret_sealed,
    createdAt: raw.created_at,
    expiresAt: raw.expires_at,
  };
}

export function insertAccessKey(db: Db, key: AccessKeyRow): void {
  stmt(db, 'INSERT INTO access_keys (access_key, account_id, name, permissions, secret_sealed, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)').run(
    key.accessKey,
    key.accountId,
    key.name,
    key.permissions.join(','),
    key.secretSealed,
    key.createdAt,
    key.expiresAt,
  );
}

export function accessKeyById(db: Db, accessKey: string): AccessKeyRow | null {
  const raw = stmt(db, 'SELECT * FROM access_keys WHERE access_key = ?').get(accessKey) as RawKey | undefined;
  return raw ? toKey(raw) : null;
}

export function accessKeyByName(db: Db, accountId: number, name: string): AccessKeyRow | null {
  const raw = stmt(db, 'SELECT * FROM access_keys WHERE account_id = ? AND name = ?').get(accountId, name) as RawKey | undefined;
  return raw ? toKey(raw) : null;
}

export function accessKeysOf(db: Db, accountId: number): AccessKeyRow[] {
  return (stmt(db, 'SELECT * FROM access_keys WHERE account_id = ? ORDER BY created_at DESC, rowid DESC').all(accountId) as RawKey[]).map(toKey);
}

export function deleteAccessKey(db: Db, accessKey: string): void {
  stmt(db, 'DELETE FROM access_keys WHERE access_key = ?').run(accessKey);
}

/** Session keys whose expiry has come (on the partial index of migration 11). */
export function expiredSessionKeys(db: Db, nowSeconds: number): AccessKeyRow[] {
  return (stmt(db, 'SELECT * FROM access_keys WHERE expires_at IS NOT NULL AND expires_at <= ?').all(nowSeconds) as RawKey[]).map(toKey);
}
