/** Typed statements for the block index (migration 2). Multihashes are raw multihash bytes. */
export interface BlockLocation {
  packId: number;
  offset: number;
  length: number;
  createdAt: number;
}

export interface NewBlockRow {
  multihash: Uint8Array;
  packId: number;
  offset: number;
  length: number;
  createdAt: number;
}

export interface StoredBlockRow {
  multihash: Uint8Array;
  length: number;
  createdAt: number;
}

export interface PackRow {
  id: number;
  liveBytes: number;
  liveBlocks: number;
  sealed: boolean;
  createdAt: number;
}

/** What the index holds of one pack: its blocks, their bytes and multihash bytes, and where the last one ends. */
export interface PackRecords {
  blocks: number;
  blockBytes: number;
  multihashBytes: number;
  /** End offset of the last indexed block; 0 when the pack holds none. */
  end: number;
}

/** Where each block is: its pack and offset (the block store alone uses it). */
export interface BlockIndexRepository {
  findBlock(multihash: Uint8Array): Promise<BlockLocation | undefined>;
  blockExists(multihash: Uint8Array): Promise<boolean>;
  /** Inserts a row unless the multihash is indexed already; returns whether it inserted. */
  insertBlockIfAbsent(row: NewBlockRow): Promise<boolean>;
  /**
   * Indexes many blocks in a few statements: each row is inserted unless its multihash is indexed already,
   * and then that row's `created_at` moves forward instead (atomic against a GC delete beside it). Answers,
   * in the rows' order, whether each was inserted.
   */
  indexBlocks(rows: readonly NewBlockRow[]): Promise<boolean[]>;
  /** Moves `created_at` forward (never back); returns false when the block is not indexed. */
  touchBlock(multihash: Uint8Array, createdAt: number): Promise<boolean>;
  /**
   * Deletes one row and returns where its bytes were, so pack accounting can follow. With `createdBefore`,
   * only a row older than that (unix seconds) goes: a block re-uploaded since GC listed it stays.
   */
  deleteBlockRow(
    multihash: Uint8Array,
    createdBefore?: number,
  ): Promise<
    | {
        packId: number;
        length: number;
      }
    | undefined
  >;
  /** A page of the index in multihash order, starting after `after` (exclusive). */
  listBlocksAfter(after: Uint8Array | undefined, limit: number): Promise<StoredBlockRow[]>;
  /** Every live block of one pack, in file order (compaction copies them). */
  listPackBlocks(packId: number): Promise<
    Array<{
      multihash: Uint8Array;
      offset: number;
      length: number;
    }>
  >;
  /** Points a block at its new copy, only if it still lives where compaction read it. */
  relocateBlock(
    multihash: Uint8Array,
    from: {
      packId: number;
      offset: number;
    },
    to: {
      packId: number;
      offset: number;
    },
  ): Promise<boolean>;
  createPack(createdAt: number): Promise<number>;
  sealPack(packId: number): Promise<void>;
  /**
   * Moves packs' `created_at` forward (never back): the heartbeat of a writer whose packs are not sealed
   * yet, so a sweep of unsealed packs older than a grace period leaves a live writer's packs alone.
   */
  touchPacks(packIds: readonly number[], createdAt: number): Promise<void>;
  /** Seals every pack still open for appends (only safe when no other process can be writing). */
  sealAllPacks(): Promise<void>;
  addPackLive(packId: number, bytes: number, blocks: number): Promise<void>;
  packRecords(packId: number): Promise<PackRecords>;
  findPack(packId: number): Promise<PackRow | undefined>;
  deletePackRow(packId: number): Promise<void>;
  listPacks(): Promise<PackRow[]>;
  totalLiveBytes(): Promise<{
    bytes: number;
    blocks: number;
  }>;
}
