import type { CID } from 'multiformats/cid';
import { unixSeconds } from '../base/clock.js';
import { record } from '../accounts/usage.js';
import { parseCidParam } from '../content/cid-param.js';
import { inTransaction } from '../store/db/database.js';
import { deletePin, liveRootCids, pinOf, pinsWithStatus } from '../store/db/pins-queries.js';
import type { PinsContext } from './context.js';

/** What GC needs from the blockstore and the content engine. */
export interface GcStore {
  /** Calls `visit` with the multihash of every held block reachable from `root` (any codec). */
  mark(root: CID, visit: (multihash: Uint8Array) => void, signal?: AbortSignal): Promise<void>;
  /** Every stored block with the Unix second it was last written. */
  storedBlocks(signal?: AbortSignal): AsyncIterable<{ multihash: Uint8Array; createdAt: number }>;
  /**
   * Deletes the blocks, except any written after `createdBefore` (checked inside the delete, so a block
   * uploaded again after it was listed survives).
   */
  deleteMultihashes(multihashes: Uint8Array[], createdBefore: number): number;
  /** Reclaims the space of deleted blocks. */
  compact(signal?: AbortSignal): Promise<void>;
}

export interface GcResult {
  pinsRemoved: number;
  blocksDeleted: number;
  blocksKept: number;
}

const DELETE_BATCH = 1000;

function keyOf(multihash: Uint8Array): string {
  return Buffer.from(multihash.buffer, multihash.byteOffset, multihash.byteLength).toString('latin1');
}

/**
 * One garbage-collection cycle (contract section 6): mark every block a live pin reaches, delete every
 * other block older than the grace period, then drop the pins that were `unpinning` when the cycle
 * began and release their counters. Runs under the GC lock, so no pin is added mid-cycle.
 */
export async function collectGarbage(ctx: PinsContext, store: GcStore, graceSeconds: number, signal?: AbortSignal): Promise<GcResult> {
  return ctx.gcLock.exclusive(async () => {
    const { db, clock } = ctx.accounts;
    const leaving = pinsWithStatus(db, 'unpinning');
    const marked = new Set<string>();
    for (const root of liveRootCids(db)) {
      await store.mark(parseCidParam(root, 'cid'), (multihash) => marked.add(keyOf(multihash)), signal);
    }
    const cutoff = unixSeconds(clock) - graceSeconds;
    let doomed: Uint8Array[] = [];
    let blocksDeleted = 0;
    let blocksKept = 0;
    for await (const block of store.storedBlocks(signal)) {
      if (marked.has(keyOf(block.multihash)) || block.createdAt > cutoff) {
        blocksKept++;
        continue;
      }
      doomed.push(block.multihash);
      if (doomed.length >= DELETE_BATCH) {
        blocksDeleted += store.deleteMultihashes(doomed, cutoff + 1);
        doomed = [];
      }
    }
    if (doomed.length > 0) blocksDeleted += store.deleteMultihashes(doomed, cutoff + 1);
    if (blocksDeleted > 0) await store.compact(signal);

    let pinsRemoved = 0;
    inTransaction(db, () => {
      for (const pin of leaving) {
        const current = pinOf(db, pin.accountId, pin.cid);
        if (!current || current.status !== 'unpinning') continue;
        deletePin(db, current.id);
        record(ctx.accounts, current.accountId, 'pinned_count', -1);
        record(ctx.accounts, current.accountId, 'pinned_bytes', -current.size);
        pinsRemoved++;
      }
    });
    return { pinsRemoved, blocksDeleted, blocksKept };
  });
}
