import { UnixFS } from 'ipfs-unixfs';
import type { CID } from 'multiformats/cid';
import type { PendingBlocks } from './blocks.js';
import { HAMT_HASH_TYPE, shardLink, type ShardNode, type ShardSlot } from './directory-node.js';
import { hashOf, type Entry } from './entries.js';
import { utf8 } from './entry-name.js';
import { encodePbNode, type EncodableLink } from './pb-encode.js';
import type { ShardCache } from './shard-cache.js';

/** The importer's default fanout: 256 slots, 8 hash bits a level. */
export const DEFAULT_FANOUT = 256;

/** Past this depth two names would need identical 512-bit hash prefixes: treat it as a fault. */
const MAX_DEPTH = 64;

export interface ShardWriteContext {
  pending: PendingBlocks;
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
      slots.set(index, shardLink(child.cid, child.size));
    }
  }
  return writeShard(ctx, { fanout, bits, slots });
}

/** Encodes a shard node as the importer does (dir-sharded.ts `flush`) and queues its block. */
export function writeShard(ctx: ShardWriteContext, shard: ShardNode): ShardResult {
  const labels = slotLabels(shard.fanout);
  const indexes = [...shard.slots.keys()].sort((a, b) => a - b);
  let childrenSize = 0;
  const links = indexes.map((index): EncodableLink => {
    const slot = shard.slots.get(index) as ShardSlot;
    const prefix = labels[index] as Uint8Array;
    if (slot.kind === 'shard') {
      childrenSize += slot.tsize ?? 0;
      return { prefix, name: NO_NAME, hash: slot.cidBytes, tsize: slot.tsize };
    }
    childrenSize += slot.entry.tsize ?? 0;
    return { prefix, name: slot.entry.nameBytes, hash: slot.entry.cidBytes, tsize: slot.entry.tsize };
  });
  const data = new UnixFS({
    type: 'hamt-sharded-directory',
    data: bitfield(indexes, shard.fanout),
    fanout: BigInt(shard.fanout),
    hashType: BigInt(HAMT_HASH_TYPE),
  }).marshal();
  const bytes = encodePbNode(data, links);
  const cid = ctx.pending.add(bytes);
  ctx.shardCache?.set(cid, shard);
  return { cid, size: bytes.length + childrenSize };
}

const NO_NAME = new Uint8Array(0);
const labelCache = new Map<number, Uint8Array[]>();

/** Slot labels as the importer writes them: upper-case hex, zero-padded to the width of `fanout - 1`. */
function slotLabels(fanout: number): Uint8Array[] {
  let labels = labelCache.get(fanout);
  if (labels === undefined) {
    const padLength = (fanout - 1).toString(16).length;
    labels = Array.from({ length: fanout }, (_, i) => utf8(i.toString(16).toUpperCase().padStart(padLength, '0')));
    labelCache.set(fanout, labels);
  }
  return labels;
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
