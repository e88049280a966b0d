import type { DirectoryLayout, DirectoryStats } from './types.js';

/** Bytes of the `Data` field of a plain directory without mode or mtime: `0a 02 08 01`. */
const PLAIN_DATA_FIELD_BYTES = 4;

function varintLength(value: number): number {
  let length = 1;
  while (value >= 128) {
    value = Math.floor(value / 128);
    length++;
  }
  return length;
}

/** Exact bytes one link adds to a dag-pb node (the importer's `linkSerializedSize`). */
export function linkSerializedSize(nameBytes: number, cidBytes: number, tsize: number): number {
  const inner = 1 + varintLength(cidBytes) + cidBytes + (1 + varintLength(nameBytes) + nameBytes) + (1 + varintLength(tsize));
  return 1 + varintLength(inner) + inner;
}

export interface SizedEntry {
  nameBytes: Uint8Array;
  cidBytes: Uint8Array;
  tsize: number | undefined;
}

export function emptyStats(kind: DirectoryStats['kind']): DirectoryStats {
  return { kind, entries: 0, linksBytes: 0, blockBytes: PLAIN_DATA_FIELD_BYTES };
}

/** Adds (`sign` 1) or takes away (`sign` -1) one entry's share of every estimate. */
export function countEntry(stats: DirectoryStats, entry: SizedEntry, sign: 1 | -1): void {
  const cidBytes = entry.cidBytes.length;
  stats.entries += sign;
  stats.linksBytes += sign * (entry.nameBytes.length + cidBytes);
  stats.blockBytes += sign * linkSerializedSize(entry.nameBytes.length, cidBytes, entry.tsize ?? 0);
}

/** The importer's decision (flat-to-shard.ts): shard when the estimate is strictly above the threshold. */
export function shouldShard(stats: DirectoryStats, layout: DirectoryLayout): boolean {
  const estimate = layout.shardSplitStrategy === 'block-bytes' ? stats.blockBytes : stats.linksBytes;
  return estimate > layout.shardSplitThresholdBytes;
}
