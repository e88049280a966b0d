import { createHash } from 'node:crypto';
import * as dagPb from '@ipld/dag-pb';
import { CID } from 'multiformats/cid';
import * as Digest from 'multiformats/hashes/digest';
import { AppError, NotFoundError } from '../../base/errors.js';
import { multihashKey } from '../../base/multihash-key.js';
import { decodePbNode, type RawNode } from './pb-decode.js';
import type { DirectoryBlockstore } from './types.js';

const SHA2_256 = 0x12;
const IDENTITY = 0x00;

/** The empty UnixFS directory (QmUNLLsPACCz1vLxQVkXqqLX5R1X345qqfHbsf67hvA3Nn): always available. */
export const EMPTY_DIRECTORY_BYTES = Uint8Array.from([0x0a, 0x02, 0x08, 0x01]);
export const EMPTY_DIRECTORY_CID = dagPbCid(EMPTY_DIRECTORY_BYTES);
const EMPTY_DIRECTORY_KEY = multihashKey(EMPTY_DIRECTORY_CID.multihash.bytes);

/** dag-pb sha2-256 in the CID version asked for (1 unless said), as the importer makes them (hashed synchronously). */
export function dagPbCid(bytes: Uint8Array, cidVersion: 0 | 1 = 1): CID {
  const hash = createHash('sha256').update(bytes).digest();
  const digest = Digest.create(SHA2_256, new Uint8Array(hash.buffer, hash.byteOffset, hash.byteLength));
  return cidVersion === 0 ? CID.createV0(digest) : CID.createV1(dagPb.code, digest);
}

/**
 * Blocks an edit makes, held back until the whole edit has succeeded so that a rejected edit writes
 * nothing. Reads of pending blocks are served from here. Every block gets a CID of `cidVersion`.
 */
export class PendingBlocks {
  private readonly blocks = new Map<string, { cid: CID; bytes: Uint8Array }>();

  constructor(readonly cidVersion: 0 | 1 = 1) {}

  add(bytes: Uint8Array): CID {
    const cid = dagPbCid(bytes, this.cidVersion);
    this.blocks.set(multihashKey(cid.multihash.bytes), { cid, bytes });
    return cid;
  }

  get(cid: CID): Uint8Array | undefined {
    return this.blocks.get(multihashKey(cid.multihash.bytes))?.bytes;
  }

  /** Takes over every block of `other` (an attempt that is kept). */
  absorb(other: PendingBlocks): void {
    for (const [key, block] of other.blocks) this.blocks.set(key, block);
  }

  get size(): number {
    return this.blocks.size;
  }

  /** Writes the blocks the store does not hold yet; returns how many were written. */
  async commit(blockstore: DirectoryBlockstore, signal?: AbortSignal): Promise<number> {
    const missing: Array<{ cid: CID; bytes: Uint8Array }> = [];
    for (const block of this.blocks.values()) {
      signal?.throwIfAborted();
      if (!(await blockstore.has(block.cid, { signal }))) missing.push(block);
    }
    // Put together: a store that makes each write durable (ours fsyncs) then shares one flush among them.
    await Promise.all(missing.map(async ({ cid, bytes }) => blockstore.put(cid, bytes, { signal })));
    this.blocks.clear();
    return missing.length;
  }
}

/** Reads a whole block; a block the store does not hold is a {@link NotFoundError} naming `what`. */
export async function readBlock(
  blockstore: Pick<DirectoryBlockstore, 'get'>,
  cid: CID,
  what: string,
  options: { signal?: AbortSignal; pending?: PendingBlocks } = {},
): Promise<Uint8Array> {
  if (cid.multihash.code === IDENTITY) return cid.multihash.digest;
  if (multihashKey(cid.multihash.bytes) === EMPTY_DIRECTORY_KEY) return EMPTY_DIRECTORY_BYTES;
  const pending = options.pending?.get(cid);
  if (pending !== undefined) return pending;
  const chunks: Uint8Array[] = [];
  try {
    for await (const chunk of blockstore.get(cid, { signal: options.signal })) chunks.push(chunk);
  } catch (error) {
    // interface-store's NotFoundError and our blockstore's (an AppError) alike: name the parameter.
    if (error instanceof NotFoundError || (!(error instanceof AppError) && (error as { name?: unknown } | null)?.name === 'NotFoundError')) {
      throw new NotFoundError(`${what}: block ${cid.toString()} is not held`);
    }
    throw error;
  }
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  return Buffer.concat(chunks);
}

/**
 * The cumulative DAG size a link to `cid` carries as Tsize, computed the way the importer does from
 * the child alone: a dag-pb node's block length plus its links' Tsize; any other block its length.
 */
export async function cumulativeSize(
  blockstore: Pick<DirectoryBlockstore, 'get'>,
  cid: CID,
  what: string,
  options: { signal?: AbortSignal; pending?: PendingBlocks } = {},
): Promise<number> {
  const bytes = await readBlock(blockstore, cid, what, options);
  if (cid.code !== dagPb.code) return bytes.length;
  let node: RawNode;
  try {
    node = decodePbNode(bytes);
  } catch {
    return bytes.length;
  }
  let size = bytes.length;
  for (const link of node.links) size += link.tsize ?? 0;
  return size;
}
