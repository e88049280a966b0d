import { PACK_MAGIC } from './pack-format.js';

export interface CompactionPolicy {
  /** A pack holding this many dead bytes (any cause) is rewritten whatever its live share. */
  maxDeadBytes: number;
  /** A pack whose live records are below this share of its records' bytes is rewritten. */
  maxLiveRatio: number;
}

export interface PackUse {
  /** Size of the pack file. */
  fileBytes: number;
  /** Bytes of the records an index row points at (or will: staged by a batch in progress), headers included. */
  liveRecordBytes: number;
}

/**
 * Whether rewriting a pack (copying its live records elsewhere, then deleting it) is worth it. A pack with
 * nothing live always is. Otherwise the dead bytes must reach `maxDeadBytes` (so no pack keeps more
 * space that nothing uses than that, whatever made it dead: GC, aborted uploads, lost races), or the live
 * share must fall under `maxLiveRatio` (so a small pack that is mostly dead goes too). With the defaults
 * (a quarter of a pack, one half), rewriting copies at most three bytes for every byte it gives back.
 */
export function worthCompacting(pack: PackUse, policy: CompactionPolicy): boolean {
  const records = Math.max(0, pack.fileBytes - PACK_MAGIC.length);
  if (pack.liveRecordBytes <= 0) return true;
  const dead = records - pack.liveRecordBytes;
  if (dead <= 0) return false;
  return dead >= policy.maxDeadBytes || pack.liveRecordBytes < records * policy.maxLiveRatio;
}
