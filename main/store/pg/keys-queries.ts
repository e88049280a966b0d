import type { AccessKeyRow } from '../repositories/keys.js';
import { int, row, rows, type Queryable } from './queryable.js';

/** Access keys: the PostgreSQL side of AccessKeysRepository (store/db/keys-queries.ts). */

interface RawKey {
  access_key: string;
  account_id: string;
  name: string;
  permissions: string;
  secret_sealed: Buffer;
  created_at: string;
  expires_at: string | null;
}

const KEY_COLUMNS = 'access_key, account_id, name, permissions, secret_sealed, created_at, expires_at';

function toKey(raw: RawKey): AccessKeyRow {
  return {
    accessKey: raw.access_key,
    accountId: int(raw.account_id),
    name: raw.name,
    permissions: raw.permissions === '' ? [] : raw.permissions.split(','),
    secretSealed: raw.secret_sealed,
    createdAt: int(raw.created_at),
    expiresAt: raw.expires_at === null ? null : int(raw.expires_at),
  };
}

export async function insertAccessKey(q: Queryable, key: AccessKeyRow): Promise<void> {
  await q.query(
    'INSERT INTO access_keys (access_key, account_id, name, permissions, secret_sealed, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
    [key.accessKey, key.accountId, key.name, key.permissions.join(','), Buffer.from(key.secretSealed), key.createdAt, key.expiresAt],
  );
}

export async function accessKeyById(q: Queryable, accessKey: string): Promise<AccessKeyRow | null> {
  const raw = await row<RawKey>(q, `SELECT ${KEY_COLUMNS} FROM access_keys WHERE access_key = $1`, [accessKey]);
  return raw ? toKey(raw) : null;
}

export async function accessKeyByName(q: Queryable, accountId: number, name: string): Promise<AccessKeyRow | null> {
  const raw = await row<RawKey>(q, `SELECT ${KEY_COLUMNS} FROM access_keys WHERE account_id = $1 AND name = $2`, [accountId, name]);
  return raw ? toKey(raw) : null;
}

/** Newest first; keys of the same second, the later inserted first (`seq` stands for SQLite's rowid). */
export async function accessKeysOf(q: Queryable, accountId: number): Promise<AccessKeyRow[]> {
  return (await rows<RawKey>(q, `SELECT ${KEY_COLUMNS} FROM access_keys WHERE account_id = $1 ORDER BY created_at DESC, seq DESC`, [accountId])).map(toKey);
}

export async function deleteAccessKey(q: Queryable, accessKey: string): Promise<void> {
  await q.query('DELETE FROM access_keys WHERE access_key = $1', [accessKey]);
}

/** Session keys whose expiry has come (on the partial index access_keys_expiry). */
export async function expiredSessionKeys(q: Queryable, nowSeconds: number): Promise<AccessKeyRow[]> {
  return (await rows<RawKey>(q, `SELECT ${KEY_COLUMNS} FROM access_keys WHERE expires_at IS NOT NULL AND expires_at <= $1`, [nowSeconds])).map(toKey);
}
