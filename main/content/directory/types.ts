import type { Blockstore } from 'interface-blockstore';
import type { CID } from 'multiformats/cid';
import type { ShardCache } from './shard-cache.js';

/** The narrowest blockstore capability directory editing needs (as Helia's commands ask for theirs). */
export type DirectoryBlockstore = Pick<Blockstore, 'get' | 'put' | 'has'>;

/**
 * How ipfs-unixfs-importer 17 estimates a plain directory's size before deciding to shard:
 * `links-bytes` (its default, Kubo's legacy rule) sums name bytes + CID bytes of every link;
 * `block-bytes` (the IPIP-499 `unixfs-v1-2025` profile) uses the exact serialized block size.
 */
export type ShardSplitStrategy = 'links-bytes' | 'block-bytes';

export interface DirectoryLayout {
  /** A directory whose estimate is strictly above this becomes a HAMT shard. Default 262144. */
  shardSplitThresholdBytes: number;
  /** Default `links-bytes`, the importer's default. */
  shardSplitStrategy: ShardSplitStrategy;
  /** CID version of the directory and shard nodes an edit writes (Kubo's legacy profile: 0). Default 1. */
  cidVersion: 0 | 1;
}

export const DEFAULT_LAYOUT: DirectoryLayout = {
  shardSplitThresholdBytes: 262_144,
  shardSplitStrategy: 'links-bytes',
  cidVersion: 1,
};

/**
 * What a directory edit needs to know about the whole directory without reading it: enough to
 * decide plain vs HAMT after a change. Kept per root by the folder index.
 */
export interface DirectoryStats {
  kind: 'plain' | 'hamt';
  /** Number of entries (names), whatever the layout. */
  entries: number;
  /** Sum over entries of UTF-8 name bytes + CID bytes (the `links-bytes` estimate). */
  linksBytes: number;
  /** Exact size of the plain-directory block holding these entries (the `block-bytes` estimate). */
  blockBytes: number;
}

/** One name in a directory, as its link carries it. `tsize` is the link's cumulative DAG size. */
export interface DirectoryEntry {
  name: string;
  cid: CID;
  tsize: number | undefined;
}

/**
 * `add`: `[name, cid]` pairs, optionally `[name, cid, tsize]` when the caller already knows the
 * child's cumulative size (otherwise it is read from the child's block). An existing entry of the
 * same name is replaced. `remove`: names that must exist.
 */
export interface DirectoryChanges {
  add?: ReadonlyArray<readonly [name: string, cid: CID, tsize?: number]>;
  remove?: readonly string[];
}

export interface DirectoryEditOptions extends Partial<DirectoryLayout> {
  signal?: AbortSignal;
  /**
   * Known stats of a directory (from the folder index). Without them a HAMT directory is walked
   * whole once to count its entries; a plain one is counted from its own block.
   */
  statsOf?: (cid: CID) => DirectoryStats | undefined;
  /** Decoded shard nodes by CID, shared between calls so hot shards are not decoded again. */
  shardCache?: ShardCache;
}

export interface DirectoryEditResult {
  cid: CID;
  /** Cumulative DAG size of the new directory: what a parent link's Tsize must carry. */
  size: number;
  stats: DirectoryStats;
}
