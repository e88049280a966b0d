import type { CID } from 'multiformats/cid';
import { multihashKey } from '../../base/multihash-key.js';
import type { ShardNode } from './directory-node.js';

/** Decoded HAMT shard nodes by CID. Blocks are immutable, so entries never go stale. */
export interface ShardCache {
  get(cid: CID): ShardNode | undefined;
  set(cid: CID, node: ShardNode): void;
}

/** A least-recently-used cache of at most `maxNodes` shard nodes (a 256-link shard is ~20 KB decoded). */
export function createShardCache(maxNodes = 4096): ShardCache {
  const nodes = new Map<string, ShardNode>();
  return {
    get(cid) {
      const key = multihashKey(cid.multihash.bytes);
      const node = nodes.get(key);
      if (node !== undefined) {
        nodes.delete(key);
        nodes.set(key, node);
      }
      return node;
    },
    set(cid, node) {
      const key = multihashKey(cid.multihash.bytes);
      nodes.delete(key);
      nodes.set(key, node);
      if (nodes.size > maxNodes) {
        const oldest = nodes.keys().next();
        if (oldest.done !== true) nodes.delete(oldest.value);
      }
    },
  };
}
