import type { CID } from 'multiformats/cid';
import { readShard, type ReadContext, type ShardNode } from './directory-node.js';
import { hashOf, type Entry } from './entries.js';
import type { DirectoryEntry } from './types.js';

export interface WalkProgress {
  shards: number;
  entries: number;
}

/** Shards walked between two yields to the event loop. */
const SHARDS_PER_YIELD = 64;
let shardsSinceYield = 0;

/**
 * Visits every entry below `shard` (in no particular order), reading each child shard once (the only
 * whole-directory read; the folder import does it once per root). The children of a shard are read
 * together, so the store's reads overlap instead of waiting on each other. `what` names the root in
 * errors.
 */
export async function walkShard(
  ctx: ReadContext,
  shard: ShardNode,
  what: string,
  onEntry: (entry: DirectoryEntry) => void,
  onShard?: (cid: CID) => void,
): Promise<void> {
  ctx.signal?.throwIfAborted();
  // Blocks served from memory resolve without I/O: without this, walking a huge directory would hold
  // the event loop for the whole walk and every other request would wait behind it.
  if (++shardsSinceYield >= SHARDS_PER_YIELD) {
    shardsSinceYield = 0;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  const children: CID[] = [];
  for (const slot of shard.slots.values()) {
    if (slot.kind === 'entry') {
      onEntry(slot.entry);
    } else {
      onShard?.(slot.cid);
      children.push(slot.cid);
    }
  }
  const nodes = await Promise.all(children.map((cid) => readShard(ctx, cid, shard.fanout, what)));
  for (const child of nodes) await walkShard(ctx, child, what, onEntry, onShard);
}

/** Finds one name in a HAMT by following its hash: reads only the shards on its path. */
export async function lookupInShard(
  ctx: ReadContext,
  root: ShardNode,
  target: { name: string; nameBytes: Uint8Array; hash?: Entry['hash'] },
  what: string,
): Promise<DirectoryEntry | undefined> {
  const hash = hashOf(target);
  let shard = root;
  for (let depth = 0; ; depth++) {
    const slot = shard.slots.get(hash.slot(depth, shard.bits));
    if (slot === undefined) return undefined;
    if (slot.kind === 'entry') return slot.entry.name === target.name ? slot.entry : undefined;
    shard = await readShard(ctx, slot.cid, root.fanout, what);
  }
}
