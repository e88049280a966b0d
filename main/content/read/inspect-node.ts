import * as dagCbor from '@ipld/dag-cbor';
import * as dagJson from '@ipld/dag-json';
import * as dagPb from '@ipld/dag-pb';
import { UnixFS } from 'ipfs-unixfs';
import type { CID } from 'multiformats/cid';
import * as json from 'multiformats/codecs/json';
import * as raw from 'multiformats/codecs/raw';
import { getBlock, type ReadBlockstore, type ReadOptions } from './blocks.js';

export const CBOR_CODE = 0x51;

/**
 * What a CID names, as the read side sees it:
 * - `file`: a UnixFS file or a raw block (bytes), `symlink`: a UnixFS symlink (its target text is its bytes),
 * - `directory` / `hamt-directory`: UnixFS directories,
 * - `dag-json` / `dag-cbor` / `json` / `cbor`: IPLD blocks served as they are,
 * - `other`: any other codec, or dag-pb that is not UnixFS (only its raw block can be served).
 */
export type NodeKind = 'file' | 'symlink' | 'directory' | 'hamt-directory' | 'dag-json' | 'dag-cbor' | 'json' | 'cbor' | 'other';

export interface NodeInfo {
  cid: CID;
  kind: NodeKind;
  /** The node's own block. */
  block: Uint8Array;
  /** Bytes of content for file/symlink, otherwise the block's length. */
  size: number;
  /** Set for dag-pb nodes. */
  pbNode?: dagPb.PBNode;
  /** Set for UnixFS dag-pb nodes. */
  unixfs?: UnixFS;
}

const byCodec: Record<number, NodeKind> = {
  [dagCbor.code]: 'dag-cbor',
  [dagJson.code]: 'dag-json',
  [json.code]: 'json',
  [CBOR_CODE]: 'cbor',
};

export function describeBlock(cid: CID, block: Uint8Array): NodeInfo {
  if (cid.code === raw.code) return { cid, kind: 'file', block, size: block.byteLength };
  if (cid.code !== dagPb.code) return { cid, kind: byCodec[cid.code] ?? 'other', block, size: block.byteLength };
  let pbNode: dagPb.PBNode;
  let unixfs: UnixFS;
  try {
    pbNode = dagPb.decode(block);
    if (pbNode.Data === undefined) return { cid, kind: 'other', block, size: block.byteLength, pbNode };
    unixfs = UnixFS.unmarshal(pbNode.Data);
  } catch {
    return { cid, kind: 'other', block, size: block.byteLength };
  }
  switch (unixfs.type) {
    case 'file':
    case 'raw':
      return { cid, kind: 'file', block, size: Number(unixfs.fileSize()), pbNode, unixfs };
    case 'symlink':
      return { cid, kind: 'symlink', block, size: unixfs.data?.byteLength ?? 0, pbNode, unixfs };
    case 'directory':
      return { cid, kind: 'directory', block, size: block.byteLength, pbNode, unixfs };
    case 'hamt-sharded-directory':
      return { cid, kind: 'hamt-directory', block, size: block.byteLength, pbNode, unixfs };
    default:
      return { cid, kind: 'other', block, size: block.byteLength, pbNode, unixfs };
  }
}

/** Reads the node's block and says what it is. A block not held locally: `NotFoundError`. */
export async function inspectNode(store: ReadBlockstore, cid: CID, options: ReadOptions = {}): Promise<NodeInfo> {
  return describeBlock(cid, await getBlock(store, cid, options));
}

/**
 * The node when the store holds its block in memory (ReadBlockstore.heldBlock), without a promise; else
 * undefined (then inspectNode reads it).
 */
export function heldNode(store: ReadBlockstore, cid: CID): NodeInfo | undefined {
  const block = store.heldBlock?.(cid);
  return block === undefined ? undefined : describeBlock(cid, block);
}

export function isDirectoryKind(kind: NodeKind): boolean {
  return kind === 'directory' || kind === 'hamt-directory';
}
