import type { Blockstore } from 'interface-blockstore';
import type { CID } from 'multiformats/cid';
import { identity } from 'multiformats/hashes/identity';
import { NotFoundError, isAppError } from '../../base/errors.js';
import type { Blocks } from '../../store/blocks.js';

/**
 * The narrowest store the read side needs: interface-blockstore's get and has, so any Blockstore serves.
 * The real store is keyed by multihash, so any codec finds a block. The block seam's fast reads are
 * optional (see store/blocks.ts): a store without `heldBlock` or `readBlockInto` is read through `get`,
 * and one without `removals` is never cached from (http/gateway/resolution-cache.ts).
 */
export type ReadBlockstore = Pick<Blockstore, 'get' | 'has'> & Partial<Pick<Blocks, 'readBlockInto' | 'heldBlock' | 'removals'>>;

export interface ReadOptions {
  signal?: AbortSignal;
}

export interface BlockReadOptions extends ReadOptions {
  /** Memory for the block's bytes (a pooled buffer), used when the store can read into it. */
  allocate?: (length: number) => Uint8Array;
}

export function isIdentityCid(cid: CID): boolean {
  return cid.multihash.code === identity.code;
}

/** interface-store throws its own `NotFoundError`; we only know it by name (it is not an AppError). */
function isStoreNotFound(err: unknown): boolean {
  return err instanceof Error && err.name === 'NotFoundError' && !isAppError(err);
}

/**
 * One block's bytes. Identity CIDs carry their bytes inline and never touch the store.
 * A block the store does not hold is a `NotFoundError` (404): the service never fetches from the network.
 */
export async function getBlock(store: ReadBlockstore, cid: CID, options: BlockReadOptions = {}): Promise<Uint8Array> {
  if (isIdentityCid(cid)) return cid.multihash.digest;
  options.signal?.throwIfAborted();
  const held = store.heldBlock?.(cid);
  if (held !== undefined) return held;
  if (options.allocate !== undefined && store.readBlockInto !== undefined) {
    try {
      return await store.readBlockInto(cid, options.allocate, { signal: options.signal });
    } catch (err) {
      if (isStoreNotFound(err)) throw new NotFoundError(`block ${cid.toString()} is not held locally`);
      throw err;
    }
  }
  const chunks: Uint8Array[] = [];
  let length = 0;
  try {
    for await (const chunk of store.get(cid, { signal: options.signal })) {
      chunks.push(chunk);
      length += chunk.byteLength;
    }
  } catch (err) {
    if (isStoreNotFound(err)) throw new NotFoundError(`block ${cid.toString()} is not held locally`);
    throw err;
  }
  if (chunks.length === 1 && chunks[0] !== undefined) return chunks[0];
  const out = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

export async function hasBlock(store: ReadBlockstore, cid: CID, options: ReadOptions = {}): Promise<boolean> {
  if (isIdentityCid(cid)) return true;
  return await store.has(cid, { signal: options.signal });
}
