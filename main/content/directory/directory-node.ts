import * as dagPb from '@ipld/dag-pb';
import { CID } from 'multiformats/cid';
import { BadInputError } from '../../base/errors.js';
import { readBlock, type PendingBlocks } from './blocks.js';
import { entryFromLink, type Entry } from './entries.js';
import { decodePbNode, type RawNode } from './pb-decode.js';
import type { ShardCache } from './shard-cache.js';
import type { DirectoryBlockstore } from './types.js';
import { readUnixfsFields, UNIXFS_DIRECTORY, UNIXFS_HAMT_SHARD } from './unixfs-data.js';

/** murmur3-x64-64, the only HAMT hash Kubo and the importer use. */
export const HAMT_HASH_TYPE = 0x22;

/** A link to a child shard; like an {@link Entry} it builds its CID object only when asked. */
export interface ShardLink {
  kind: 'shard';
  readonly cid: CID;
  readonly cidBytes: Uint8Array;
  readonly tsize: number | undefined;
}

class LazyShardLink implements ShardLink {
  readonly kind = 'shard' as const;
  private decoded: CID | undefined;

  constructor(
    readonly cidBytes: Uint8Array,
    readonly tsize: number | undefined,
    cid?: CID,
  ) {
    this.decoded = cid;
  }

  get cid(): CID {
    this.decoded ??= CID.decode(this.cidBytes);
    return this.decoded;
  }
}

export function shardLink(cid: CID, tsize: number | undefined): ShardLink {
  return new LazyShardLink(cid.bytes, tsize, cid);
}

export type ShardSlot = ShardLink | { kind: 'entry'; entry: Entry };

/** A decoded HAMT shard: its occupied slots by index. Shared through caches: never mutate. */
export interface ShardNode {
  fanout: number;
  bits: number;
  slots: ReadonlyMap<number, ShardSlot>;
}

export type DirectoryNode = { kind: 'plain'; entries: readonly Entry[]; blockLength: number } | { kind: 'hamt'; shard: ShardNode };

export interface ReadContext {
  blockstore: Pick<DirectoryBlockstore, 'get'>;
  signal?: AbortSignal;
  pending?: PendingBlocks;
  shardCache?: ShardCache;
}

function notADirectory(what: string, cid: CID): BadInputError {
  return new BadInputError(`${what}: ${cid.toString()} is not a UnixFS directory`);
}

/** Reads a directory node (plain or HAMT root); anything else is a {@link BadInputError}. */
export async function readDirectoryNode(ctx: ReadContext, cid: CID, what: string): Promise<DirectoryNode> {
  if (cid.code !== dagPb.code) throw notADirectory(what, cid);
  const cached = ctx.shardCache?.get(cid);
  if (cached !== undefined) return { kind: 'hamt', shard: cached };
  const bytes = await readBlock(ctx.blockstore, cid, what, ctx);
  return decodeDirectoryNode(ctx, cid, bytes, what);
}

export function decodeDirectoryNode(ctx: ReadContext, cid: CID, bytes: Uint8Array, what: string): DirectoryNode {
  let node: RawNode;
  try {
    node = decodePbNode(bytes);
  } catch {
    throw notADirectory(what, cid);
  }
  const fields = node.data === undefined ? undefined : readUnixfsFields(node.data);
  if (fields?.type === UNIXFS_DIRECTORY) {
    const entries = node.links.map((link) => entryFromLink(link.name ?? NO_BYTES, link.hash, link.tsize));
    return { kind: 'plain', entries, blockLength: bytes.length };
  }
  if (fields?.type !== UNIXFS_HAMT_SHARD) throw notADirectory(what, cid);
  const shard = shardFromNode(cid, node, fields.fanout, fields.hashType, what);
  ctx.shardCache?.set(cid, shard);
  return { kind: 'hamt', shard };
}

/** Reads a shard below a HAMT root; it must share the root's fanout. */
export async function readShard(ctx: ReadContext, cid: CID, fanout: number, what: string): Promise<ShardNode> {
  const node = await readDirectoryNode(ctx, cid, what);
  if (node.kind !== 'hamt' || node.shard.fanout !== fanout) {
    throw new BadInputError(`${what}: ${cid.toString()} is not a HAMT shard of fanout ${fanout}`);
  }
  return node.shard;
}

const NO_BYTES = new Uint8Array(0);

/** The hex digit a label byte spells, or -1 (slot labels are upper-case hex; lower case is read too). */
function hexDigit(byte: number): number {
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  if (byte >= 0x41 && byte <= 0x46) return byte - 0x41 + 10;
  if (byte >= 0x61 && byte <= 0x66) return byte - 0x61 + 10;
  return -1;
}

function shardFromNode(cid: CID, node: RawNode, fanout: number | undefined, hashType: number | undefined, what: string): ShardNode {
  const malformed = (why: string) => new BadInputError(`${what}: HAMT shard ${cid.toString()} ${why}`);
  if (hashType !== HAMT_HASH_TYPE) throw malformed(`uses hash type ${hashType ?? 'none'}, not murmur3-x64-64`);
  if (fanout === undefined || fanout < 2 || fanout > 65_536 || (fanout & (fanout - 1)) !== 0) {
    throw malformed(`has fanout ${fanout ?? 'none'}, not a power of two`);
  }
  const bits = Math.log2(fanout);
  const padLength = (fanout - 1).toString(16).length;
  const slots = new Map<number, ShardSlot>();
  for (const link of node.links) {
    const label = link.name ?? NO_BYTES;
    let index = label.length >= padLength ? 0 : -1;
    for (let i = 0; i < padLength && index >= 0; i++) {
      const digit = hexDigit(label[i] as number);
      index = digit < 0 ? -1 : index * 16 + digit;
    }
    const prefix = () => new TextDecoder().decode(label.subarray(0, padLength));
    if (index < 0 || index >= fanout) throw malformed(`has a link named "${new TextDecoder().decode(label)}" without a slot prefix`);
    if (slots.has(index)) throw malformed(`has two links in slot ${prefix()}`);
    if (label.length === padLength) {
      slots.set(index, new LazyShardLink(link.hash, link.tsize));
    } else {
      slots.set(index, { kind: 'entry', entry: entryFromLink(label.subarray(padLength), link.hash, link.tsize) });
    }
  }
  return { fanout, bits, slots };
}
