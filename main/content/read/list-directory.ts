import * as dagPb from '@ipld/dag-pb';
import type { CID } from 'multiformats/cid';
import { BadInputError } from '../../base/errors.js';
import { getBlock, type ReadBlockstore, type ReadOptions } from './blocks.js';
import type { NodeInfo } from './inspect-node.js';

export interface DirectoryEntry {
  name: string;
  cid: CID;
  /** The link's Tsize: bytes of the entry's whole DAG, as the parent records it (no child block is read). */
  size: number;
}

/**
 * The entries of a UnixFS directory in link order; for a HAMT shard, in shard order, reading the shard blocks
 * but never an entry's own block (a listing works when only the directory's blocks are held).
 */
export async function* listDirectory(store: ReadBlockstore, info: NodeInfo, options: ReadOptions = {}): AsyncGenerator<DirectoryEntry> {
  if (info.pbNode === undefined || (info.kind !== 'directory' && info.kind !== 'hamt-directory')) {
    throw new BadInputError(`cid: ${info.cid.toString()} is a ${info.kind}, not a directory`);
  }
  if (info.kind === 'directory') {
    for (const link of info.pbNode.Links) {
      yield { name: link.Name ?? '', cid: link.Hash, size: link.Tsize ?? 0 };
    }
    return;
  }
  const fanout = info.unixfs?.fanout ?? 256n;
  const prefixLength = (fanout - 1n).toString(16).length;
  yield* listShard(store, info.pbNode, prefixLength, options);
}

async function* listShard(store: ReadBlockstore, node: dagPb.PBNode, prefixLength: number, options: ReadOptions): AsyncGenerator<DirectoryEntry> {
  for (const link of node.Links) {
    const name = link.Name ?? '';
    if (name.length === prefixLength) {
      // A bare prefix is a sub-shard; anything longer is prefix + entry name.
      options.signal?.throwIfAborted();
      const child = dagPb.decode(await getBlock(store, link.Hash, options));
      yield* listShard(store, child, prefixLength, options);
    } else {
      yield { name: name.substring(prefixLength), cid: link.Hash, size: link.Tsize ?? 0 };
    }
  }
}
