import * as dagPb from '@ipld/dag-pb';
import { UnixFS } from 'ipfs-unixfs';
import type { CID } from 'multiformats/cid';
import type { BlockBatch } from './blocks.js';
import { HAMT_HASH_TYPE, type ShardNode, type ShardSlot } from './directory-node.js';
import { hashOf, type Entry } from './entries.js';
import type { ShardCache } from './shard-cache.js';

/** The importer's default fanout: 256 slots, 8 hash bits a level. */
export const DEFAULT_FANOUT = 256;

/** Past this depth two names would need identical 512-bit hash prefixes: treat it as a fault. */
const MAX_DEPTH = 64;

export interface ShardWriteContext {
  batch: BlockBatch;
  shardCache?: ShardCache;
  signal?: AbortSignal;
}

export interface ShardResult {
  cid: CID;
  /** Cumulative size: block length + Tsize of every link. */
  size: number;
}

/**
 * Builds the shard subtree holding `entries` (all hashing to this node's prefix) from scratch: a slot
 * with one entry holds it, a slot with several holds a child shard. This is the one layout
 * hamt-sharding (and Kubo) reach for a given set of names, whatever order they were added in.
 */
export function buildShard(ctx: ShardWriteContext, entries: readonly Entry[], depth: number, fanout: number): ShardResult {
  const bits = Math.log2(fanout);
  if (depth > MAX_DEPTH) throw new Error(`directory names collide in the HAMT hash: ${entries.map((e) => e.name).join(', ')}`);
  const groups = new Map<number, Entry[]>();
  for (const entry of entries) {
    const index = hashOf(entry).slot(depth, bits);
    const group = groups.get(index);
    if (group === undefined) groups.set(index, [entry]);
    else group.push(entry);
  }
  const slots = new Map<number, ShardSlot>();
  for (const [index, group] of groups) {
    if (group.length === 1) {
      slots.set(index, { kind: 'entry', entry: group[0] as Entry });
    } else {
      const child = buildShard(ctx, group, depth + 1, fanout);
      slots.set(index, { kind: 'shard', cid: child.cid, tsize: child.size });
    }
  }
  return writeShard(ctx, { fanout, bits, slots });
}

/** Encodes a shard node as the importer does (dir-sharded.ts `flush`) and queues its block. */
export function writeShard(ctx: ShardWriteContext, shard: ShardNode): ShardResult {
  const padLength = (shard.fanout - 1).toString(16).length;
  const indexes = [...shard.slots.keys()].sort((a, b) => a - b);
  const links: dagPb.PBLink[] = [];
  let childrenSize = 0;
  for (const index of indexes) {
    const slot = shard.slots.get(index) as ShardSlot;
    const label = index.toString(16).toUpperCase().padStart(padLength, '0');
    const link: dagPb.PBLink =
      slot.kind === 'shard'
        ? { Name: label, Hash: slot.cid }
        : { Name: label + slot.entry.name, Hash: slot.entry.cid };
    const tsize = slot.kind === 'shard' ? slot.tsize : slot.entry.tsize;
    if (tsize !== undefined) link.Tsize = tsize;
    childrenSize += tsize ?? 0;
    links.push(link);
  }
  const data = new UnixFS({
    type: 'hamt-sharded-directory',
    data: bitfield(indexes, shard.fanout),
    fanout: BigInt(shard.fanout),
    hashType: BigInt(HAMT_HASH_TYPE),
  }).marshal();
  const bytes = dagPb.encode({ Data: data, Links: links });
  const cid = ctx.batch.add(bytes);
  ctx.shardCache?.set(cid, shard);
  return { cid, size: bytes.length + childrenSize };
}

/**
 * The occupied slots as a big-endian integer without leading zero bytes (at least one byte), which is
 * what both sparse-array's reversed `bitField()` and Go's big.Int `Bytes()` produce.
 */
function bitfield(indexes: readonly number[], fanout: number): Uint8Array {
  if (indexes.length === 0) return new Uint8Array(0);
  const length = Math.ceil(fanout / 8);
  const bytes = new Uint8Array(length);
  for (const index of indexes) {
    const at = length - 1 - (index >> 3);
    bytes[at] = (bytes[at] as number) | (1 << (index & 7));
  }
  let start = 0;
  while (start < length - 1 && bytes[start] === 0) start++;
  return bytes.subarray(start);
}
