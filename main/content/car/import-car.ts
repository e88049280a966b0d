import type { CID } from 'multiformats/cid';
import { BadInputError } from '../../base/errors.js';
import { OFFLOAD_MIN_BYTES, hashPool } from '../../base/hash-pool.js';
import { verifyBlockAsync } from '../../base/hashes.js';
import type { BlockBatch, Blocks } from '../../store/blocks.js';
import type { Transaction } from '../../store/repositories/index.js';
import { requireReadableLinks } from '../walk/block-links.js';
import { readCarStream } from './car-stream.js';

export interface CarImportProgress {
  /** CAR bytes read so far. */
  bytes: number;
  blocks: number;
}

export interface ImportCarOptions {
  signal?: AbortSignal;
  /** The largest block a section may carry: the store's own when importing into it, else 8 MiB. */
  maxBlockBytes?: number;
  onProgress?: (progress: CarImportProgress) => void;
  /**
   * Runs on the metadata transaction that makes the blocks visible (only when the import commits its own
   * batch), for records that must exist exactly when the blocks do (a CAR import's ingress and root pins):
   * it writes through `tx` alone. If it throws, nothing of the import is kept.
   */
  onCommit?: (tx: Transaction, result: CarImportResult) => Promise<void>;
}

export interface CarImportResult {
  roots: CID[];
  /** Every block section read (duplicates included, as Kubo's dag import counts). */
  blockCount: number;
  /** Bytes of those blocks. */
  blockBytes: number;
}

interface PendingBlock {
  cid: CID;
  bytes: Uint8Array;
  verified: Promise<void>;
}

/** Blocks verifying at once. */
const VERIFY_WINDOW = 8;

/** Headroom for the CID in front of a block of `maxBlockBytes`. */
const CID_ALLOWANCE = 128;

/**
 * Imports every block of a CARv1/CARv2 stream (reachable from the roots or not). Each block's hash is
 * verified, and a block of a linking codec (dag-pb, dag-cbor, dag-json) must decode within the nesting
 * limit, else GC and the pin census could not follow it (contract section 4: the whole CAR is refused);
 * blocks are staged and become visible only when the whole CAR parsed and every header root is
 * in the CAR or already stored. Otherwise BadInputError, and nothing of this CAR is visible. Into a
 * store the import stages and commits a batch of its own; into a BlockBatch the caller commits.
 */
export async function importCar(
  target: Pick<Blocks, 'createBatch' | 'maxBlockBytes'> | BlockBatch,
  source: AsyncIterable<unknown> | Iterable<unknown>,
  options: ImportCarOptions = {},
): Promise<CarImportResult> {
  // A store is told from a batch by what it can do (it makes batches), not by its class.
  const owned = 'createBatch' in target;
  const maxBlockBytes = options.maxBlockBytes ?? (owned ? target.maxBlockBytes : undefined);
  const batch = owned ? target.createBatch() : target;
  const putOptions = { signal: options.signal };
  const window: PendingBlock[] = [];
  const pool = hashPool();
  try {
    const car = await readCarStream(source, {
      maxSectionBytes: (maxBlockBytes ?? 8 * 1024 * 1024) + CID_ALLOWANCE,
      allocate: (length) => (length >= OFFLOAD_MIN_BYTES ? pool.allocate(length) : new Uint8Array(length)),
    });
    let blockCount = 0;
    let blockBytes = 0;
    // Large blocks verify on the hash workers while the next sections are parsed; staging keeps CAR order.
    const stage = async (block: PendingBlock): Promise<void> => {
      try {
        await block.verified;
        requireReadableLinks('car', block.cid, block.bytes);
      } catch (error) {
        pool.release(block.bytes);
        throw error;
      }
      await batch.putTrusted(block.cid, block.bytes, { ...putOptions, release: () => pool.release(block.bytes) });
    };
    try {
      for await (const { cid, bytes } of car.blocks) {
        const verified = verifyBlockAsync(cid, bytes);
        // Observed now so a failure while the next section is parsed is not an unhandled rejection.
        verified.catch(() => undefined);
        window.push({ cid, bytes, verified });
        if (window.length >= VERIFY_WINDOW) await stage(window.shift() as PendingBlock);
        blockCount++;
        blockBytes += bytes.byteLength;
        options.onProgress?.({ bytes: car.position, blocks: blockCount });
      }
      while (window.length > 0) await stage(window.shift() as PendingBlock);
    } finally {
      // After a failure, blocks never handed to the batch go back to the arena.
      for (const block of window.splice(0)) pool.release(block.bytes);
    }
    for (const root of car.roots) {
      if (!(await batch.has(root))) throw new BadInputError(`car: root ${root.toString()} is neither in the CAR nor stored`);
    }
    options.signal?.throwIfAborted();
    const result = { roots: car.roots, blockCount, blockBytes };
    const { onCommit } = options;
    if (owned) await batch.commit(onCommit && (async (tx) => onCommit(tx, result)));
    return result;
  } catch (error) {
    if (owned) batch.abort();
    throw error;
  }
}
