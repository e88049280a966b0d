import type { AccessKeyRow } from '../repositories/keys.js';
import { int, intOrNull, orNull, type Int } from '../sql/columns.js';
import { insertionOrder } from '../sql/dialects.js';
import { queryRow, queryRows, statement } from '../sql/query.js';
import { raw, sql } from '../sql/sql.js';

/** Access keys (their secrets sealed) and session keys: AccessKeysRepository. */

interface RawKey {
  access_key: string;
  account_id: Int;
  name: string;
  permissions: string;
  secret_sealed: Buffer;
  created_at: Int;
  expires_at: Int | null;
}

const KEY_COLUMNS = raw('access_key, account_id, name, permissions, secret_sealed, created_at, expires_at');

function toKey(raw: RawKey): AccessKeyRow {
  return {
    accessKey: raw.access_key,
    accountId: int(raw.account_id),
    name: raw.name,
    permissions: raw.permissions === '' ? [] : raw.permissions.split(','),
    secretSealed: raw.secret_sealed,
    createdAt: int(raw.created_at),
    expiresAt: intOrNull(raw.expires_at),
  };
}

export const insertAccessKey = statement(
  (key: AccessKeyRow) =>
    sql`INSERT INTO access_keys (access_key, account_id, name, permissions, secret_sealed, created_at, expires_at)
        VALUES (${key.accessKey}, ${key.accountId}, ${key.name}, ${key.permissions.join(',')}, ${key.secretSealed}, ${key.createdAt}, ${key.expiresAt})`,
);

export const accessKeyById = queryRow((accessKey: string) => sql`SELECT ${KEY_COLUMNS} FROM access_keys WHERE access_key = ${accessKey}`, orNull(toKey));

export const accessKeyByName = queryRow(
  (accountId: number, name: string) => sql`SELECT ${KEY_COLUMNS} FROM access_keys WHERE account_id = ${accountId} AND name = ${name}`,
  orNull(toKey),
);

/** Newest first; keys of the same second, the later inserted first. */
export const accessKeysOf = queryRows(
  (accountId: number) =>
    sql`SELECT ${KEY_COLUMNS} FROM access_keys WHERE account_id = ${accountId} ORDER BY created_at DESC, ${insertionOrder('access_keys')} DESC`,
  toKey,
);

export const deleteAccessKey = statement((accessKey: string) => sql`DELETE FROM access_keys WHERE access_key = ${accessKey}`);

/** Session keys whose expiry has come (on the partial index access_keys_expiry). */
export const expiredSessionKeys = queryRows(
  (nowSeconds: number) => sql`SELECT ${KEY_COLUMNS} FROM access_keys WHERE expires_at IS NOT NULL AND expires_at <= ${nowSeconds}`,
  toKey,
);
