import type { Blockstore } from 'interface-blockstore';
import type { CID } from 'multiformats/cid';
import { identity } from 'multiformats/hashes/identity';
import { NotFoundError, isAppError } from '../../base/errors.js';

/**
 * The narrowest store the read side needs. The real store is keyed by multihash, so any codec finds a block.
 * A store that can read a block into memory its caller supplies says so with `readBlockInto`.
 */
export type ReadBlockstore = Pick<Blockstore, 'get' | 'has'> & {
  /**
   * The block's bytes, read into `allocate(length)` unless the store already holds them in memory (then
   * those are returned). Rejects with a NotFoundError (by name) when the block is not stored.
   */
  readBlockInto?(cid: CID, allocate: (length: number) => Uint8Array, options?: { signal?: AbortSignal }): Promise<Uint8Array>;
  /**
   * Moves whenever blocks leave the store (garbage collection): what was worked out from its blocks
   * before (a resolved path) may no longer hold. A store without it is never cached from.
   */
  readonly removals?: number;
  /**
   * The block when the store already holds it in memory (a recently read small block), else undefined; no
   * I/O and no promise. Readers try it first: a cached block then costs a map lookup, not an async read.
   */
  heldBlock?(cid: CID): Uint8Array | undefined;
};

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
