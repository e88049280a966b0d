/** Typed statements for IPNS names (table ipns_names) and third-party records (ipns_routing_records). */
export interface NameRow {
  id: number;
  accountId: number;
  name: string;
  alias: string | null;
  keyType: 'Ed25519' | 'RSA';
  keySealed: Buffer;
  value: string;
  seq: number;
  record: Buffer;
  createdAt: number;
  publishAt: number;
  /** Unix second at which the stored record's validity ends (floor of its EOL). */
  validUntil: number;
  /** Its records are also put on the IPFS network (`name/public`); a new name never is. */
  public: boolean;
}

/**
 * The newest record seen elsewhere of a name held here (another machine with the same key publishes too): what
 * it points at, where it was found, and when. Kept per name, gone with it.
 */
export interface SeenRecordRow {
  seq: number;
  /** The record's value as signed (`/ipfs/<cid>`). */
  value: string;
  /** A routing endpoint's or fetch source's URL, or `pushed` (a PUT to this gateway's routing API). */
  source: string;
  /** Unix seconds. */
  seenAt: number;
}

export type NewName = Omit<NameRow, 'id' | 'keySealed' | 'record' | 'public'> & {
  keySealed: Uint8Array;
  record: Uint8Array;
};

/** IPNS names (keys sealed), their records, and records stored for other names. */
export interface NamesRepository {
  insertName(row: NewName): Promise<number>;
  /** Any account's row: names are global (the gateway resolves them for everyone). */
  nameByName(name: string): Promise<NameRow | null>;
  nameByAlias(accountId: number, alias: string): Promise<NameRow | null>;
  /** Newest first; ties (same second) by insertion order, newest first. */
  namesOf(accountId: number, limit: number, start: number): Promise<NameRow[]>;
  countNamesOf(accountId: number): Promise<number>;
  /**
   * Stores a newer record. Guarded by the sequence read before signing, so two publishes can never both
   * land on the same `seq`; false when the row changed or vanished meanwhile.
   */
  updateNameRecord(update: {
    id: number;
    expectedSeq: number;
    seq: number;
    value: string;
    record: Uint8Array;
    publishAt: number;
    validUntil: number;
  }): Promise<boolean>;
  /**
   * Stores a republished record (same value and sequence, later validity); `publish_at` keeps the time of the
   * owner's last publish. Guarded like {@link updateNameRecord}: false when the row changed or vanished.
   */
  updateNameValidity(update: { id: number; expectedSeq: number; record: Uint8Array; validUntil: number }): Promise<boolean>;
  /** Owned names whose record ends at or before `validUntil` (Unix seconds), earliest first. */
  namesValidUntil(validUntil: number, limit: number): Promise<NameRow[]>;
  /** The end of the earliest-ending record of any owned name, or null when there is none. */
  earliestValidUntil(): Promise<number | null>;
  setNameAlias(id: number, alias: string | null): Promise<void>;
  /** Marks a name public or not; false when the row is gone. */
  setNamePublic(id: number, on: boolean): Promise<boolean>;
  /** Public names with an id above `afterId`, by id: the network publisher pages through them. */
  publicNamesAfter(afterId: number, limit: number): Promise<NameRow[]>;
  deleteName(id: number): Promise<boolean>;
  /** The newest record seen elsewhere of the name with this id, or null. */
  seenRecord(nameId: number): Promise<SeenRecordRow | null>;
  /**
   * Keeps `seen` as the record seen elsewhere of the name when its sequence is higher than the one kept (or none is);
   * true when kept. The name gone: nothing kept, false.
   */
  noteSeenRecord(nameId: number, seen: SeenRecordRow): Promise<boolean>;
  routingRecord(name: string): Promise<Buffer | null>;
  putRoutingRecord(name: string, record: Uint8Array, storedAt: number): Promise<void>;
  deleteRoutingRecord(name: string): Promise<boolean>;
  /** How many records of names held elsewhere are stored (they are bounded: anyone may send one). */
  countRoutingRecords(): Promise<number>;
}
