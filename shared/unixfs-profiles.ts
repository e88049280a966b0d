/**
 * How new content is laid out under each of the service's CID profiles (contract section 5,
 * `--cid-profile`), as ipfs-unixfs-importer options. The service builds files and directories this way
 * (main/content/cid-profile.ts; test/unit/shared/unixfs-profiles.test.ts holds the two equal), and the
 * window builds a dropped folder's CAR with the same options, so the directory CID it shows is the one
 * the service would compute for the same files. Plain data: main and renderer both read it.
 */

export type UnixfsProfileName = 'unixfs-v1-2025' | 'unixfs-v0-2015';

export interface UnixfsImportOptions {
  cidVersion: 0 | 1;
  /** Leaves are raw blocks (no UnixFS wrapper). */
  rawLeaves: boolean;
  /** UnixFS type of the leaves when they are not raw. */
  leafType: 'file' | 'raw';
  /** Fixed-size chunks of this many bytes. */
  chunkSize: number;
  /** Balanced layout: at most this many links a node. */
  maxChildrenPerNode: number;
  /** A one-chunk file is its leaf. */
  reduceSingleLeafToSelf: boolean;
  /** A directory whose estimated node size is above this becomes a HAMT shard (fanout 256). */
  shardSplitThresholdBytes: number;
  /** How that size is estimated: the importer's `links-bytes` (name + CID bytes of every link) or `block-bytes`. */
  shardSplitStrategy: 'links-bytes' | 'block-bytes';
}

export const UNIXFS_PROFILES: Readonly<Record<UnixfsProfileName, Readonly<UnixfsImportOptions>>> = {
  // Pinfold's default (contract section 5): CIDv1, raw leaves, 1 MiB chunks, 1024 links a node.
  'unixfs-v1-2025': {
    cidVersion: 1,
    rawLeaves: true,
    leafType: 'file',
    chunkSize: 1_048_576,
    maxChildrenPerNode: 1024,
    reduceSingleLeafToSelf: true,
    shardSplitThresholdBytes: 262_144,
    shardSplitStrategy: 'links-bytes',
  },
  // Kubo's legacy `ipfs add` defaults (gw3's writable gateway): CIDv0, dag-pb leaves, 256 KiB chunks, 174 links.
  'unixfs-v0-2015': {
    cidVersion: 0,
    rawLeaves: false,
    leafType: 'file',
    chunkSize: 262_144,
    maxChildrenPerNode: 174,
    reduceSingleLeafToSelf: true,
    shardSplitThresholdBytes: 262_144,
    shardSplitStrategy: 'links-bytes',
  },
};

/** The profile a service runs when it says nothing else (`pinfold serve` without --cid-profile). */
export const DEFAULT_UNIXFS_PROFILE: UnixfsProfileName = 'unixfs-v1-2025';

export function isUnixfsProfileName(value: unknown): value is UnixfsProfileName {
  return value === 'unixfs-v1-2025' || value === 'unixfs-v0-2015';
}
