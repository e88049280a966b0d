import * as dagPb from '@ipld/dag-pb';
import { UnixFS } from 'ipfs-unixfs';
import type { CID } from 'multiformats/cid';
import * as raw from 'multiformats/codecs/raw';
import { AppError } from '../../base/errors.js';
import { ErrorCodes } from '../../../shared/error-codes.js';
import { getBlock, type BlockReadOptions, type ReadBlockstore } from './blocks.js';

export interface FileBlock {
  cid: CID;
  block: Uint8Array;
  /** The part of this block's own data inside the requested range (empty for nodes that only link). */
  data: Uint8Array;
}

/** Byte range [start, end): end is exclusive. */
export interface ByteSpan {
  start: number;
  end: number;
}

function corrupt(cid: CID, why: string): AppError {
  return new AppError(ErrorCodes.internal, `file ${cid.toString()} is not valid UnixFS: ${why}`);
}

function clip(data: Uint8Array, position: number, span: ByteSpan): Uint8Array {
  const from = Math.max(span.start - position, 0);
  const to = Math.min(span.end - position, data.byteLength);
  return to > from ? data.subarray(from, to) : new Uint8Array(0);
}

/**
 * The blocks of a UnixFS file (or raw block) that hold bytes of `span`, depth-first in file order, each with
 * its data clipped to the span. Uses the blocksizes in each node to skip whole subtrees, so a range of a
 * partly held DAG needs only the blocks that cover it. One block is in memory at a time (plus its ancestors).
 * With `allocate`, raw leaves are read into the memory it gives; each such leaf is yielded exactly once.
 */
export async function* walkFileBlocks(
  store: ReadBlockstore,
  cid: CID,
  block: Uint8Array,
  span: ByteSpan,
  options: BlockReadOptions = {},
): AsyncGenerator<FileBlock> {
  yield* walk(store, cid, block, 0, span, options);
}

async function* walk(
  store: ReadBlockstore,
  cid: CID,
  block: Uint8Array,
  position: number,
  span: ByteSpan,
  options: BlockReadOptions,
): AsyncGenerator<FileBlock> {
  if (cid.code === raw.code) {
    yield { cid, block, data: clip(block, position, span) };
    return;
  }
  if (cid.code !== dagPb.code) throw corrupt(cid, `unexpected codec 0x${cid.code.toString(16)}`);
  let node: dagPb.PBNode;
  let unixfs: UnixFS;
  try {
    node = dagPb.decode(block);
    if (node.Data === undefined) throw new Error('no Data');
    unixfs = UnixFS.unmarshal(node.Data);
  } catch (err) {
    throw corrupt(cid, err instanceof Error ? err.message : String(err));
  }
  const own = unixfs.data ?? new Uint8Array(0);
  yield { cid, block, data: clip(own, position, span) };
  let at = position + own.byteLength;
  if (node.Links.length !== unixfs.blockSizes.length) throw corrupt(cid, 'link count differs from blocksizes');
  for (let i = 0; i < node.Links.length; i++) {
    if (at >= span.end) return;
    const childStart = at;
    const childEnd = childStart + Number(unixfs.blockSizes[i] ?? 0n);
    at = childEnd;
    if (childEnd <= span.start) continue;
    const link = node.Links[i];
    if (link === undefined) return;
    options.signal?.throwIfAborted();
    // Only a raw leaf may go into caller-supplied memory: it yields one chunk and is never looked at again,
    // while a dag-pb node stays in use (its links are views of its bytes) until its subtree is walked.
    const childBlock = await getBlock(store, link.Hash, link.Hash.code === raw.code ? options : { signal: options.signal });
    yield* walk(store, link.Hash, childBlock, childStart, span, options);
  }
}
