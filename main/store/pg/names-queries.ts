import { changed, int, row, rows, type Queryable } from './queryable.js';
import type { NameRow, NewName, SeenRecordRow } from '../repositories/names.js';

/** The PostgreSQL side of NamesRepository (store/db/names-queries.ts, tables ipns_names and ipns_routing_records). */

interface RawName {
  id: string;
  account_id: string;
  name: string;
  alias: string | null;
  key_type: 'Ed25519' | 'RSA';
  key_sealed: Buffer;
  value: string;
  seq: string;
  record: Buffer;
  created_at: string;
  publish_at: string;
  valid_until: string;
  public: boolean;
}

const NAME_COLUMNS = 'id, account_id, name, alias, key_type, key_sealed, value, seq, record, created_at, publish_at, valid_until, public';

function toName(raw: RawName): NameRow {
  return {
    id: int(raw.id),
    accountId: int(raw.account_id),
    name: raw.name,
    alias: raw.alias,
    keyType: raw.key_type,
    keySealed: raw.key_sealed,
    value: raw.value,
    seq: int(raw.seq),
    record: raw.record,
    createdAt: int(raw.created_at),
    publishAt: int(raw.publish_at),
    validUntil: int(raw.valid_until),
    public: raw.public,
  };
}

/** pg sends a Buffer as bytea; a plain Uint8Array is viewed, not copied. */
function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

export async function insertName(q: Queryable, r: NewName): Promise<number> {
  const inserted = await row<{ id: string }>(
    q,
    `INSERT INTO ipns_names (account_id, name, alias, key_type, key_sealed, value, seq, record, created_at, publish_at, valid_until)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id`,
    [r.accountId, r.name, r.alias, r.keyType, asBuffer(r.keySealed), r.value, r.seq, asBuffer(r.record), r.createdAt, r.publishAt, r.validUntil],
  );
  if (!inserted) throw new Error('INSERT … RETURNING answered no row');
  return int(inserted.id);
}

/** Any account's row: names are global (the gateway resolves them for everyone). */
export async function nameByName(q: Queryable, name: string): Promise<NameRow | null> {
  const raw = await row<RawName>(q, `SELECT ${NAME_COLUMNS} FROM ipns_names WHERE name = $1`, [name]);
  return raw ? toName(raw) : null;
}

export async function nameByAlias(q: Queryable, accountId: number, alias: string): Promise<NameRow | null> {
  const raw = await row<RawName>(q, `SELECT ${NAME_COLUMNS} FROM ipns_names WHERE account_id = $1 AND alias = $2`, [accountId, alias]);
  return raw ? toName(raw) : null;
}

/** Newest first; ties (same second) by insertion order, newest first. */
export async function namesOf(q: Queryable, accountId: number, limit: number, start: number): Promise<NameRow[]> {
  const found = await rows<RawName>(q, `SELECT ${NAME_COLUMNS} FROM ipns_names WHERE account_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`, [
    accountId,
    limit,
    start,
  ]);
  return found.map(toName);
}

export async function countNamesOf(q: Queryable, accountId: number): Promise<number> {
  return int((await row<{ n: string }>(q, 'SELECT COUNT(*) AS n FROM ipns_names WHERE account_id = $1', [accountId]))?.n ?? 0);
}

/**
 * Stores a newer record. Guarded by the sequence read before signing, so two publishes can never both
 * land on the same `seq`; false when the row changed or vanished meanwhile. One statement: under
 * concurrent transactions the second UPDATE waits for the first and re-checks `seq` on the row it left.
 */
export async function updateNameRecord(
  q: Queryable,
  update: { id: number; expectedSeq: number; seq: number; value: string; record: Uint8Array; publishAt: number; validUntil: number },
): Promise<boolean> {
  const count = await changed(
    q,
    `UPDATE ipns_names SET seq = $1, value = $2, record = $3, publish_at = $4, valid_until = $5
     WHERE id = $6 AND seq = $7`,
    [update.seq, update.value, asBuffer(update.record), update.publishAt, update.validUntil, update.id, update.expectedSeq],
  );
  return count === 1;
}

/**
 * Stores a republished record (same value and sequence, later validity); `publish_at` keeps the time of the
 * owner's last publish. Guarded like {@link updateNameRecord}: false when the row changed or vanished.
 */
export async function updateNameValidity(q: Queryable, update: { id: number; expectedSeq: number; record: Uint8Array; validUntil: number }): Promise<boolean> {
  const count = await changed(q, 'UPDATE ipns_names SET record = $1, valid_until = $2 WHERE id = $3 AND seq = $4', [
    asBuffer(update.record),
    update.validUntil,
    update.id,
    update.expectedSeq,
  ]);
  return count === 1;
}

/** Owned names whose record ends at or before `validUntil` (Unix seconds), earliest first. */
export async function namesValidUntil(q: Queryable, validUntil: number, limit: number): Promise<NameRow[]> {
  const found = await rows<RawName>(q, `SELECT ${NAME_COLUMNS} FROM ipns_names WHERE valid_until <= $1 ORDER BY valid_until, id LIMIT $2`, [validUntil, limit]);
  return found.map(toName);
}

/** The end of the earliest-ending record of any owned name, or null when there is none. */
export async function earliestValidUntil(q: Queryable): Promise<number | null> {
  const v = (await row<{ v: string | null }>(q, 'SELECT MIN(valid_until) AS v FROM ipns_names'))?.v ?? null;
  return v === null ? null : int(v);
}

export async function setNameAlias(q: Queryable, id: number, alias: string | null): Promise<void> {
  await q.query('UPDATE ipns_names SET alias = $1 WHERE id = $2', [alias, id]);
}

/** Marks a name public or not; false when the row is gone. */
export async function setNamePublic(q: Queryable, id: number, on: boolean): Promise<boolean> {
  return (await changed(q, 'UPDATE ipns_names SET public = $1 WHERE id = $2', [on, id])) === 1;
}

/** Public names with an id above `afterId`, by id. */
export async function publicNamesAfter(q: Queryable, afterId: number, limit: number): Promise<NameRow[]> {
  const found = await rows<RawName>(q, `SELECT ${NAME_COLUMNS} FROM ipns_names WHERE public AND id > $1 ORDER BY id LIMIT $2`, [afterId, limit]);
  return found.map(toName);
}

export async function deleteName(q: Queryable, id: number): Promise<boolean> {
  return (await changed(q, 'DELETE FROM ipns_names WHERE id = $1', [id])) === 1;
}

// ---- records seen elsewhere of names held here ----

export async function seenRecord(q: Queryable, nameId: number): Promise<SeenRecordRow | null> {
  const raw = await row<{ seq: string; value: string; source: string; seen_at: string }>(
    q,
    'SELECT seq, value, source, seen_at FROM ipns_seen_records WHERE name_id = $1',
    [nameId],
  );
  return raw ? { seq: int(raw.seq), value: raw.value, source: raw.source, seenAt: int(raw.seen_at) } : null;
}

/** One statement: the higher sequence wins, and a name removed meanwhile keeps nothing. */
export async function noteSeenRecord(q: Queryable, nameId: number, seen: SeenRecordRow): Promise<boolean> {
  const count = await changed(
    q,
    `INSERT INTO ipns_seen_records (name_id, seq, value, source, seen_at)
     SELECT id, $1, $2, $3, $4 FROM ipns_names WHERE id = $5
     ON CONFLICT (name_id) DO UPDATE SET seq = EXCLUDED.seq, value = EXCLUDED.value, source = EXCLUDED.source, seen_at = EXCLUDED.seen_at
     WHERE EXCLUDED.seq > ipns_seen_records.seq`,
    [seen.seq, seen.value, seen.source, seen.seenAt, nameId],
  );
  return count === 1;
}

// ---- third-party records ----

export async function routingRecord(q: Queryable, name: string): Promise<Buffer | null> {
  return (await row<{ record: Buffer }>(q, 'SELECT record FROM ipns_routing_records WHERE name = $1', [name]))?.record ?? null;
}

export async function putRoutingRecord(q: Queryable, name: string, record: Uint8Array, storedAt: number): Promise<void> {
  await q.query(
    `INSERT INTO ipns_routing_records (name, record, stored_at) VALUES ($1, $2, $3)
     ON CONFLICT (name) DO UPDATE SET record = EXCLUDED.record, stored_at = EXCLUDED.stored_at`,
    [name, asBuffer(record), storedAt],
  );
}

export async function deleteRoutingRecord(q: Queryable, name: string): Promise<boolean> {
  return (await changed(q, 'DELETE FROM ipns_routing_records WHERE name = $1', [name])) === 1;
}

export async function countRoutingRecords(q: Queryable): Promise<number> {
  return int((await row<{ n: string }>(q, 'SELECT COUNT(*) AS n FROM ipns_routing_records'))?.n ?? 0);
}
