import type { NameRow, NewName, SeenRecordRow } from '../repositories/names.js';
import { flag, flagValue, int, intOrNull, orNull, type Int } from '../sql/columns.js';
import { queryRow, queryRows, statement } from '../sql/query.js';
import { raw, sql } from '../sql/sql.js';

/** IPNS names (ipns_names), records seen elsewhere of them (ipns_seen_records) and third-party records (ipns_routing_records): NamesRepository. */

interface RawName {
  id: Int;
  account_id: Int;
  name: string;
  alias: string | null;
  key_type: 'Ed25519' | 'RSA';
  key_sealed: Buffer;
  value: string;
  seq: Int;
  record: Buffer;
  created_at: Int;
  publish_at: Int;
  valid_until: Int;
  public: Int;
}

const NAME_COLUMNS = raw('id, account_id, name, alias, key_type, key_sealed, value, seq, record, created_at, publish_at, valid_until, public');

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
    public: flag(raw.public),
  };
}

export const insertName = queryRow(
  (r: NewName) =>
    sql`INSERT INTO ipns_names (account_id, name, alias, key_type, key_sealed, value, seq, record, created_at, publish_at, valid_until)
        VALUES (${r.accountId}, ${r.name}, ${r.alias}, ${r.keyType}, ${r.keySealed}, ${r.value}, ${r.seq}, ${r.record}, ${r.createdAt}, ${r.publishAt}, ${r.validUntil})
        RETURNING id`,
  (raw: { id: Int } | undefined) => {
    if (!raw) throw new Error('INSERT … RETURNING answered no row');
    return int(raw.id);
  },
);

/** Any account's row: names are global (the gateway resolves them for everyone). */
export const nameByName = queryRow((name: string) => sql`SELECT ${NAME_COLUMNS} FROM ipns_names WHERE name = ${name}`, orNull(toName));

export const nameByAlias = queryRow(
  (accountId: number, alias: string) => sql`SELECT ${NAME_COLUMNS} FROM ipns_names WHERE account_id = ${accountId} AND alias = ${alias}`,
  orNull(toName),
);

/** Newest first; ties (same second) by insertion order, newest first. */
export const namesOf = queryRows(
  (accountId: number, limit: number, start: number) =>
    sql`SELECT ${NAME_COLUMNS} FROM ipns_names WHERE account_id = ${accountId} ORDER BY created_at DESC, id DESC LIMIT ${limit} OFFSET ${start}`,
  toName,
);

export const countNamesOf = queryRow(
  (accountId: number) => sql`SELECT COUNT(*) AS n FROM ipns_names WHERE account_id = ${accountId}`,
  (raw: { n: Int } | undefined) => int(raw?.n ?? 0),
);

/**
 * Stores a newer record. Guarded by the sequence read before signing, so two publishes can never both
 * land on the same `seq`; false when the row changed or vanished meanwhile. One statement: under
 * concurrent transactions the second UPDATE waits for the first and re-checks `seq` on the row it left.
 */
export const updateNameRecord = statement(
  (update: { id: number; expectedSeq: number; seq: number; value: string; record: Uint8Array; publishAt: number; validUntil: number }) =>
    sql`UPDATE ipns_names SET seq = ${update.seq}, value = ${update.value}, record = ${update.record}, publish_at = ${update.publishAt}, valid_until = ${update.validUntil}
        WHERE id = ${update.id} AND seq = ${update.expectedSeq}`,
  (changes) => changes === 1,
);

/**
 * Stores a republished record (same value and sequence, later validity); `publish_at` keeps the time of the
 * owner's last publish. Guarded like {@link updateNameRecord}: false when the row changed or vanished.
 */
export const updateNameValidity = statement(
  (update: { id: number; expectedSeq: number; record: Uint8Array; validUntil: number }) =>
    sql`UPDATE ipns_names SET record = ${update.record}, valid_until = ${update.validUntil} WHERE id = ${update.id} AND seq = ${update.expectedSeq}`,
  (changes) => changes === 1,
);

/** Owned names whose record ends at or before `validUntil` (Unix seconds), earliest first. */
export const namesValidUntil = queryRows(
  (validUntil: number, limit: number) => sql`SELECT ${NAME_COLUMNS} FROM ipns_names WHERE valid_until <= ${validUntil} ORDER BY valid_until, id LIMIT ${limit}`,
  toName,
);

/** The end of the earliest-ending record of any owned name, or null when there is none. */
export const earliestValidUntil = queryRow(
  () => sql`SELECT MIN(valid_until) AS v FROM ipns_names`,
  (raw: { v: Int | null } | undefined) => intOrNull(raw?.v ?? null),
);

export const setNameAlias = statement((id: number, alias: string | null) => sql`UPDATE ipns_names SET alias = ${alias} WHERE id = ${id}`);

/** Marks a name public or not; false when the row is gone. */
export const setNamePublic = statement(
  (id: number, on: boolean) => sql`UPDATE ipns_names SET public = ${flagValue(on)} WHERE id = ${id}`,
  (changes) => changes === 1,
);

/** Public names with an id above `afterId`, by id (on the partial index ipns_names_public). */
export const publicNamesAfter = queryRows(
  (afterId: number, limit: number) => sql`SELECT ${NAME_COLUMNS} FROM ipns_names WHERE public = 1 AND id > ${afterId} ORDER BY id LIMIT ${limit}`,
  toName,
);

export const deleteName = statement(
  (id: number) => sql`DELETE FROM ipns_names WHERE id = ${id}`,
  (changes) => changes === 1,
);

// ---- records seen elsewhere of names held here ----

export const seenRecord = queryRow(
  (nameId: number) => sql`SELECT seq, value, source, seen_at FROM ipns_seen_records WHERE name_id = ${nameId}`,
  orNull((raw: { seq: Int; value: string; source: string; seen_at: Int }): SeenRecordRow => ({
    seq: int(raw.seq),
    value: raw.value,
    source: raw.source,
    seenAt: int(raw.seen_at),
  })),
);

/** One statement: the higher sequence wins, and a name removed meanwhile keeps nothing. */
export const noteSeenRecord = statement(
  (nameId: number, seen: SeenRecordRow) =>
    sql`INSERT INTO ipns_seen_records (name_id, seq, value, source, seen_at)
        SELECT id, ${seen.seq}, ${seen.value}, ${seen.source}, ${seen.seenAt} FROM ipns_names WHERE id = ${nameId}
        ON CONFLICT (name_id) DO UPDATE SET seq = excluded.seq, value = excluded.value, source = excluded.source, seen_at = excluded.seen_at
        WHERE excluded.seq > ipns_seen_records.seq`,
  (changes) => changes === 1,
);

// ---- third-party records ----

export const routingRecord = queryRow(
  (name: string) => sql`SELECT record FROM ipns_routing_records WHERE name = ${name}`,
  (raw: { record: Buffer } | undefined) => raw?.record ?? null,
);

export const putRoutingRecord = statement(
  (name: string, record: Uint8Array, storedAt: number) =>
    sql`INSERT INTO ipns_routing_records (name, record, stored_at) VALUES (${name}, ${record}, ${storedAt})
        ON CONFLICT (name) DO UPDATE SET record = excluded.record, stored_at = excluded.stored_at`,
);

export const deleteRoutingRecord = statement(
  (name: string) => sql`DELETE FROM ipns_routing_records WHERE name = ${name}`,
  (changes) => changes === 1,
);

export const countRoutingRecords = queryRow(
  () => sql`SELECT COUNT(*) AS n FROM ipns_routing_records`,
  (raw: { n: Int } | undefined) => int(raw?.n ?? 0),
);
