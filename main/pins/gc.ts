import { CID } from 'multiformats/cid';
import { unixSeconds } from '../base/clock.js';
import { multihashKey } from '../base/multihash-key.js';
import { record } from '../accounts/usage.js';
import type { Repositories, Transaction } from '../store/repositories/index.js';
import type { PinRow } from '../store/repositories/pins.js';
import type { PinsContext } from './context.js';

/** What GC needs from the blockstore and the content engine. */
export interface GcStore {
  /**
   * Calls `visit` with the multihash of every held block reachable from `root` (any codec). Throws when it
   * meets a held block whose links it cannot read: the cycle then stops before its sweep.
   */
  mark(root: CID, visit: (multihash: Uint8Array) => void, signal?: AbortSignal): Promise<void>;
  /** Every stored block with the Unix second it was last written. */
  storedBlocks(signal?: AbortSignal): AsyncIterable<{ multihash: Uint8Array; createdAt: number }>;
  /**
   * Deletes the blocks, except any written after `createdBefore` (checked inside the delete, so a block
   * uploaded again after it was listed survives).
   */
  deleteMultihashes(multihashes: Uint8Array[], createdBefore: number): Promise<number>;
  /** Reclaims the space of deleted blocks. */
  compact(signal?: AbortSignal): Promise<void>;
}

export interface GcResult {
  pinsRemoved: number;
  blocksDeleted: number;
  blocksKept: number;
}

const DELETE_BATCH = 1000;

/**
 * One garbage-collection cycle (contract section 6). First, in one transaction, the pins that are
 * `unpinning` are dropped with their counters released, and the live roots are read; only then are
 * blocks marked and the unreachable ones older than the grace period deleted, in batches. So a crash
 * at any point of the sweep leaves no pin that claims a deleted block: the dropped pins are gone
 * already, and every remaining pin was a live root whose blocks were marked. Runs under the GC lock,
 * so no pin is added (or taken back) mid-cycle; a pin removed mid-cycle stays `unpinning`, its blocks
 * marked, until the next cycle. `heldRoots` are roots other domains hold (a sync folder's kept versions),
 * read in the same transaction as the pins and marked as theirs.
 */
export async function collectGarbage(
  ctx: PinsContext,
  store: GcStore,
  graceSeconds: number,
  options: { signal?: AbortSignal; heldRoots?: (tx: Repositories) => Promise<readonly string[]> } = {},
): Promise<GcResult> {
  const { signal, heldRoots = async () => [] } = options;
  return ctx.gcLock.exclusive(async () => {
    const { clock } = ctx.accounts;
    const { dropped, liveRoots } = await ctx.accounts.store.transaction(async (tx) => {
      const leaving = await dropUnpinningPins(ctx, tx);
      return { dropped: leaving, liveRoots: new Set([...(await tx.pins.liveRootCids()), ...(await heldRoots(tx))]) };
    });
    for (const pin of dropped) ctx.events?.pinChanged(pin.accountId, { cid: pin.cid, removed: true });
    const pinsRemoved = dropped.length;
    const marked = new Set<string>();
    for (const root of liveRoots) {
      await store.mark(CID.parse(root), (multihash) => marked.add(multihashKey(multihash)), signal);
    }
    const cutoff = unixSeconds(clock) - graceSeconds;
    let doomed: Uint8Array[] = [];
    let blocksDeleted = 0;
    let blocksKept = 0;
    for await (const block of store.storedBlocks(signal)) {
      if (marked.has(multihashKey(block.multihash)) || block.createdAt > cutoff) {
        blocksKept++;
        continue;
      }
      doomed.push(block.multihash);
      if (doomed.length >= DELETE_BATCH) {
        blocksDeleted += await store.deleteMultihashes(doomed, cutoff + 1);
        doomed = [];
      }
    }
    if (doomed.length > 0) blocksDeleted += await store.deleteMultihashes(doomed, cutoff + 1);
    if (blocksDeleted > 0) await store.compact(signal);
    return { pinsRemoved, blocksDeleted, blocksKept };
  });
}

/** Deletes every `unpinning` pin and releases what it held of `pinned_count` and `pinned_bytes`; returns them. */
async function dropUnpinningPins(ctx: PinsContext, tx: Transaction): Promise<PinRow[]> {
  const leaving = await tx.pins.pinsWithStatus('unpinning');
  for (const pin of leaving) {
    await tx.pins.deletePin(pin.id);
    await record(ctx.accounts, tx, pin.accountId, 'pinned_count', -1);
    await record(ctx.accounts, tx, pin.accountId, 'pinned_bytes', -pin.size);
  }
  return leaving;
}
