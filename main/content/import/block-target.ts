import type { Blockstore } from 'interface-blockstore';
import type { CID } from 'multiformats/cid';
import { hashPool, sharedBytes } from '../../base/hash-pool.js';
import type { BlockBatch, Blocks } from '../../store/blocks.js';

/**
 * Where an import writes. A store that stages batches gets a batch of its own that commits when the import
 * has succeeded (all-or-nothing); a BlockBatch is the caller's (it commits); any other blockstore gets puts.
 */
export type ImportTarget = Pick<Blocks, 'createBatch'> | BlockBatch | Pick<Blockstore, 'put'>;

export interface OpenTarget {
  /** Stores a block; `release` runs once the target no longer reads `bytes`. */
  write(cid: CID, bytes: Uint8Array, release?: () => void): Promise<unknown>;
  /** Memory for a chunk: recycled arena slots for Pinfold targets, fresh memory for targets that keep it. */
  allocate(length: number): Uint8Array;
  release(bytes: Uint8Array): void;
  /** Used by the directory import, which runs ipfs-unixfs-importer on the same target. */
  storage: Pick<Blockstore, 'put'>;
  commit(): Promise<void>;
  abort(): void;
}

export function openTarget(target: ImportTarget, signal: AbortSignal | undefined): OpenTarget {
  // Told apart by what they can do, not by class: any implementation of the block seam stages the same way.
  if ('createBatch' in target) return batchTarget(target.createBatch(), true, signal);
  if ('putTrusted' in target) return batchTarget(target, false, signal);
  return {
    write: async (cid, bytes) => target.put(cid, bytes, { signal }),
    // Other blockstores may keep the bytes they are given, so their chunks are never reused.
    allocate: sharedBytes,
    release: () => undefined,
    storage: target,
    commit: async () => undefined,
    abort: () => undefined,
  };
}

function batchTarget(batch: BlockBatch, owned: boolean, signal: AbortSignal | undefined): OpenTarget {
  const options = { signal };
  const pool = hashPool();
  return {
    write: (cid, bytes, release) => batch.putTrusted(cid, bytes, { signal, release }),
    allocate: (length) => pool.allocate(length),
    release: (bytes) => pool.release(bytes),
    storage: {
      put: async (cid: CID, bytes: Uint8Array | Iterable<Uint8Array> | AsyncIterable<Uint8Array>) => {
        if (!(bytes instanceof Uint8Array)) throw new TypeError('importer blocks must be Uint8Array');
        return batch.putTrusted(cid, bytes, options);
      },
    },
    commit: async () => {
      if (owned) await batch.commit();
    },
    abort: () => {
      if (owned) batch.abort();
    },
  };
}
