import { fixedSize } from 'ipfs-unixfs-importer/chunker';
import type { ImporterOptions } from 'ipfs-unixfs-importer';
import { balanced } from 'ipfs-unixfs-importer/layout';

/** Shared by the `--cid-profile unixfs-v0-2015` tests (cid-profile, sync-cid-profile). */

/** Kubo's legacy `ipfs add` defaults as ipfs-unixfs-importer options: the independent reference. */
export const KUBO_LEGACY: ImporterOptions = {
  cidVersion: 0,
  rawLeaves: false,
  leafType: 'file',
  reduceSingleLeafToSelf: true,
  chunker: fixedSize({ chunkSize: 262_144 }),
  layout: balanced({ maxChildrenPerNode: 174 }),
  shardSplitThresholdBytes: 262_144,
  shardSplitStrategy: 'links-bytes',
};

/** Deterministic bytes, different in every chunk. */
export function bytesOf(size: number, seed = 1): Uint8Array {
  const bytes = new Uint8Array(size);
  let state = seed >>> 0;
  for (let i = 0; i < size; i++) {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
    bytes[i] = state >>> 24;
  }
  return bytes;
}
