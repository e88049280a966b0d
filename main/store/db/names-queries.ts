import { stmt, type Db } from './database.js';
import type { NameRow, NewName, SeenRecordRow } from '../repositories/names.js';

/** Typed statements for IPNS names (table ipns_names) and third-party records (ipns_routing_records). */

interface RawName {
  id: number;
  account_id: number;
  name: string;
  alias: string | null;
  key_type: 'Ed25519' | 'RSA';
  key_sealed: Buffer;
  value: string;
  seq: number;
  record: Buffer;
  created_at: number;
  publish_at: number;
  valid_until: number;
  public: 0 | 1;
}

function toName(raw: RawName | undefined): NameRow | null {
  if (!raw) return null;
  return {
    id: raw.id,
    accountId: raw.account_id,
    name: raw.name,
    alias: raw.alias,
    keyType: raw.key_type,
    keySealed: raw.key_sealed,
    value: raw.value,
    seq: raw.seq,
    record: raw.record,
    createdAt: raw.created_at,
    publishAt: raw.publish_at,
    validUntil: raw.valid_until,
    public: raw.public === 1,
  };
}

/** better-sqlite3 binds Buffers as BLOBs; a plain Uint8Array is viewed, not copied. */
function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

export function insertName(db: Db, row: NewName): number {
  const result = stmt(
    db,
    `INSERT INTO ipns_names (account_id, name, alias, key_type, key_sealed, value, seq, record, created_at, publish_at, valid_until)
     VALUES (@accountId, @name, @alias, @keyType, @keySealed, @value, @seq, @record, @createdAt, @publishAt, @validUntil)`,
  ).run({ ...row, keySealed: asBuffer(row.keySealed), record: asBuffer(row.record) });
  return Number(result.lastInsertRowid);
}

/** Any account's row: names are global (the gateway resolves them for everyone). */
export function nameByName(db: Db, name: string): NameRow | null {
  return toName(stmt(db, 'SELECT * FROM ipns_names WHERE name = ?').get(name) as RawName | undefined);
}

export function nameByAlias(db: Db, accountId: number, alias: string): NameRow | null {
  return toName(stmt(db, 'SELECT * FROM ipns_names WHERE account_id = ? AND alias = ?').get(accountId, alias) as RawName | undefined);
}

/** Newest first; ties (same second) by insertion order, newest first. */
export function namesOf(db: Db, accountId: number, limit: number, start: number): NameRow[] {
  const rows = stmt(db, 'SELECT * FROM ipns_names WHERE account_id = ? ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?').all(
    accountId,
    limit,
    start,
  ) as RawName[];
  return rows.map((raw) => toName(raw) as NameRow);
}

export function countNamesOf(db: Db, accountId: number): number {
  return (stmt(db, 'SELECT COUNT(*) AS n FROM ipns_names WHERE account_id = ?').get(accountId) as { n: number }).n;
}

/**
 * Stores a newer record. Guarded by the sequence read before signing, so two publishes can never both
 * land on the same `seq`; false when the row changed or vanished meanwhile.
 */
export function updateNameRecord(
  db: Db,
  update: { id: number; expectedSeq: number; seq: number; value: string; record: Uint8Array; publishAt: number; validUntil: number },
): boolean {
  const result = stmt(
    db,
    `UPDATE ipns_names SET seq = @seq, value = @value, record = @record, publish_at = @publishAt, valid_until = @validUntil
     WHERE id = @id AND seq = @expectedSeq`,
  ).run({ ...update, record: asBuffer(update.record) });
  return result.changes === 1;
}

/**
 * Stores a republished record (same value and sequence, later validity); `publish_at` keeps the time of the
 * owner's last publish. Guarded like {@link updateNameRecord}: false when the row changed or vanished.
 */
export function updateNameValidity(db: Db, update: { id: number; expectedSeq: number; record: Uint8Array; validUntil: number }): boolean {
  const result = stmt(db, 'UPDATE ipns_names SET record = @record, valid_until = @validUntil WHERE id = @id AND seq = @expectedSeq').run({
    ...update,
    record: asBuffer(update.record),
  });
  return result.changes === 1;
}

/** Owned names whose record ends at or before `validUntil` (Unix seconds), earliest first. */
export function namesValidUntil(db: Db, validUntil: number, limit: number): NameRow[] {
  const rows = stmt(db, 'SELECT * FROM ipns_names WHERE valid_until <= ? ORDER BY valid_until, id LIMIT ?').all(validUntil, limit) as RawName[];
  return rows.map((raw) => toName(raw) as NameRow);
}

/** The end of the earliest-ending record of any owned name, or null when there is none. */
export function earliestValidUntil(db: Db): number | null {
  return (stmt(db, 'SELECT MIN(valid_until) AS v FROM ipns_names').get() as { v: number | null }).v;
}

export function setNameAlias(db: Db, id: number, alias: string | null): void {
  stmt(db, 'UPDATE ipns_names SET alias = ? WHERE id = ?').run(alias, id);
}

/** Marks a name public or not; false when the row is gone. */
export function setNamePublic(db: Db, id: number, on: boolean): boolean {
  return stmt(db, 'UPDATE ipns_names SET public = ? WHERE id = ?').run(on ? 1 : 0, id).changes === 1;
}

/** Public names with an id above `afterId`, by id. */
export function publicNamesAfter(db: Db, afterId: number, limit: number): NameRow[] {
  const rows = stmt(db, 'SELECT * FROM ipns_names WHERE public = 1 AND id > ? ORDER BY id LIMIT ?').all(afterId, limit) as RawName[];
  return rows.map((raw) => toName(raw) as NameRow);
}

export function deleteName(db: Db, id: number): boolean {
  return stmt(db, 'DELETE FROM ipns_names WHERE id = ?').run(id).changes === 1;
}

// ---- records seen elsewhere of names held here ----

export function seenRecord(db: Db, nameId: number): SeenRecordRow | null {
  const raw = stmt(db, 'SELECT seq, value, source, seen_at FROM ipns_seen_records WHERE name_id = ?').get(nameId) as
    { seq: number; value: string; source: string; seen_at: number } | undefined;
  return raw ? { seq: raw.seq, value: raw.value, source: raw.source, seenAt: raw.seen_at } : null;
}

/** One statement: the higher sequence wins, and a name removed meanwhile keeps nothing. */
export function noteSeenRecord(db: Db, nameId: number, seen: SeenRecordRow): boolean {
  const run = stmt(
    db,
    `INSERT INTO ipns_seen_records (name_id, seq, value, source, seen_at)
     SELECT id, ?, ?, ?, ? FROM ipns_names WHERE id = ?
     ON CONFLICT (name_id) DO UPDATE SET seq = excluded.seq, value = excluded.value, source = excluded.source, seen_at = excluded.seen_at
     WHERE excluded.seq > ipns_seen_records.seq`,
  ).run(seen.seq, seen.value, seen.source, seen.seenAt, nameId);
  return run.changes === 1;
}

// ---- third-party records ----

export function routingRecord(db: Db, name: string): Buffer | null {
  const row = stmt(db, 'SELECT record FROM ipns_routing_records WHERE name = ?').get(name) as { record: Buffer } | undefined;
  return row?.record ?? null;
}

export function putRoutingRecord(db: Db, name: string, record: Uint8Array, storedAt: number): void {
  stmt(
    db,
    `INSERT INTO ipns_routing_records (name, record, stored_at) VALUES (?, ?, ?)
     ON CONFLICT (name) DO UPDATE SET record = excluded.record, stored_at = excluded.stored_at`,
  ).run(name, asBuffer(record), storedAt);
}

export function deleteRoutingRecord(db: Db, name: string): boolean {
  return stmt(db, 'DELETE FROM ipns_routing_records WHERE name = ?').run(name).changes === 1;
}

export function countRoutingRecords(db: Db): number {
  return (stmt(db, 'SELECT COUNT(*) AS n FROM ipns_routing_records').get() as { n: number }).n;
}
