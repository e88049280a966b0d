import type { CID } from 'multiformats/cid';
import type { CidProfileName } from '../base/config.js';
import { EMPTY_DIRECTORY_CID } from './directory/blocks.js';
import { DEFAULT_LAYOUT, type DirectoryLayout } from './directory/types.js';
import { CONTRACT_LAYOUT, type ResolvedLayout } from './import/unixfs-options.js';

/** Everything that decides the CIDs of new content under one of Kubo's profile names. */
export interface CidProfile {
  name: CidProfileName;
  /** How a file is chunked and laid out. */
  file: ResolvedLayout;
  /** How a directory edit writes directories and decides on a HAMT. */
  directory: DirectoryLayout;
  /** The empty directory in the profile's CID version (where a new tree starts). */
  emptyDirectory: CID;
}

/**
 * Kubo's legacy import defaults (IPIP-499 `unixfs-v0-2015`, `ipfs add` without options through Kubo
 * 0.39; gw3's writable gateway): CIDv0 dag-pb nodes, leaves wrapped in UnixFS `file` nodes (not raw),
 * sha2-256, 256 KiB chunks, at most 174 links a node, balanced; a directory whose links' name and CID
 * bytes pass 256 KiB becomes a HAMT of fanout 256, and directories and shards are CIDv0 too.
 */
const UNIXFS_V0_2015: CidProfile = {
  name: 'unixfs-v0-2015',
  file: {
    cidVersion: 0,
    rawLeaves: false,
    leafType: 'file',
    chunkSize: 262_144,
    maxChildrenPerNode: 174,
    reduceSingleLeafToSelf: true,
    hashCode: 0x12,
  },
  directory: { shardSplitThresholdBytes: 262_144, shardSplitStrategy: 'links-bytes', cidVersion: 0 },
  emptyDirectory: EMPTY_DIRECTORY_CID.toV0(),
};

/** Pinfold's contract layout (contract section 5), the default. */
const UNIXFS_V1_2025: CidProfile = {
  name: 'unixfs-v1-2025',
  file: CONTRACT_LAYOUT,
  directory: DEFAULT_LAYOUT,
  emptyDirectory: EMPTY_DIRECTORY_CID,
};

export function cidProfile(name: CidProfileName): CidProfile {
  return name === 'unixfs-v0-2015' ? UNIXFS_V0_2015 : UNIXFS_V1_2025;
}
