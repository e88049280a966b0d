import type { CID } from 'multiformats/cid';
import { NotFoundError } from '../base/errors.js';
import { multihashKey } from '../base/multihash-key.js';
import type { AbortOptions, Blocks } from '../store/blocks.js';

/**
 * A block fetched from the network and verified against its CID (the fetch engine's `fetchBlock`); rejects
 * when no source has it.
 */
export type FetchVerifiedBlock = (cid: CID, signal?: AbortSignal) => Promise<Uint8Array>;

/** The read side of a block store (content/read's ReadBlockstore, with its fast reads). */
export interface ReadThroughBlocks {
  get(cid: CID, options?: AbortOptions): AsyncGenerator<Uint8Array>;
  has(cid: CID, options?: AbortOptions): Promise<boolean>;
  readBlockInto(cid: CID, allocate: (length: number) => Uint8Array, options?: AbortOptions): Promise<Uint8Array>;
  heldBlock(cid: CID): Uint8Array | undefined;
  readonly removals: number;
}

function isNotFound(error: unknown): boolean {
  return error instanceof Error && error.name === 'NotFoundError';
}

/**
 * The blocks as the gateway reads them for a name held elsewhere (contract section 11: `/ipns/<name>` of a
 * name Pinfold does not hold): a block the store lacks is fetched from the network, verified, stored and
 * then read like any other. It is stored unpinned, as a cache: garbage collection takes it once its grace
 * period is over, unless a pin holds it by then. `has` answers for the store only (`only-if-cached` means
 * held here). Several reads of one missing block share one fetch.
 */
export function readThroughBlocks(
  blocks: Pick<Blocks, 'findBlock' | 'has' | 'readBlockInto' | 'heldBlock' | 'removals' | 'createBatch'>,
  fetchBlock: FetchVerifiedBlock,
): ReadThroughBlocks {
  const fetching = new Map<string, Promise<Uint8Array>>();

  const fetchAndStore = (cid: CID, signal?: AbortSignal): Promise<Uint8Array> => {
    const key = multihashKey(cid.multihash.bytes);
    let pending = fetching.get(key);
    if (pending === undefined) {
      // Not tied to one reader's signal: another reader may be waiting for the same block.
      pending = (async () => {
        let bytes: Uint8Array;
        try {
          bytes = await fetchBlock(cid);
        } catch {
          // As for any block not held: 404 (the fetch engine has logged why each source failed).
          throw new NotFoundError(`block ${cid.toString()} is not held here and no source had it`);
        }
        const batch = blocks.createBatch();
        try {
          // put verifies the bytes against the CID once more: nothing unverified is ever stored or served.
          await batch.put(cid, bytes);
          await batch.commit();
        } catch (error) {
          batch.abort();
          throw error;
        }
        return bytes;
      })().finally(() => fetching.delete(key));
      fetching.set(key, pending);
    }
    return signal === undefined ? pending : raceAbort(pending, signal);
  };

  return {
    async *get(cid, options = {}) {
      const held = await blocks.findBlock(cid, options);
      yield held ?? (await fetchAndStore(cid, options.signal));
    },
    has: (cid, options) => blocks.has(cid, options),
    async readBlockInto(cid, allocate, options = {}) {
      try {
        return await blocks.readBlockInto(cid, allocate, options);
      } catch (error) {
        if (!isNotFound(error)) throw error;
      }
      const fetched = await fetchAndStore(cid, options.signal);
      const into = allocate(fetched.byteLength);
      into.set(fetched);
      return into;
    },
    heldBlock: (cid) => blocks.heldBlock(cid),
    get removals() {
      return blocks.removals;
    },
  };
}

/** `pending`, or the signal's reason once it aborts first (the shared fetch goes on for the others). */
function raceAbort<T>(pending: Promise<T>, signal: AbortSignal): Promise<T> {
  const reason = (): Error => (signal.reason instanceof Error ? signal.reason : new Error('aborted'));
  if (signal.aborted) return Promise.reject(reason());
  let onAbort = (): void => undefined;
  const aborted = new Promise<never>((_resolve, reject) => {
    onAbort = () => reject(reason());
    signal.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([pending, aborted]).finally(() => signal.removeEventListener('abort', onAbort));
}
