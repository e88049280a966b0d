import * as dagPb from '@ipld/dag-pb';
import type { CID } from 'multiformats/cid';
import { BadInputError } from '../../base/errors.js';
import { readBlock, type BlockBatch } from './blocks.js';
import type { ShardCache } from './shard-cache.js';
import type { DirectoryBlockstore, DirectoryEntry } from './types.js';
import { readUnixfsFields, UNIXFS_DIRECTORY, UNIXFS_HAMT_SHARD } from './unixfs-data.js';

/** murmur3-x64-64, the only HAMT hash Kubo and the importer use. */
export const HAMT_HASH_TYPE = 0x22;

export type ShardSlot =
  | { kind: 'shard'; cid: CID; tsize: number | undefined }
  | { kind: 'entry'; entry: DirectoryEntry };

/** A decoded HAMT shard: its occupied slots by index. Shared through caches: never mutate. */
export interface ShardNode {
  fanout: number;
  bits: number;
  slots: ReadonlyMap<number, ShardSlot>;
}

export type DirectoryNode =
  | { kind: 'plain'; links: readonly dagPb.PBLink[]; blockLength: number }
  | { kind: 'hamt'; shard: ShardNode };

export interface ReadContext {
  blockstore: Pick<DirectoryBlockstore, 'get'>;
  signal?: AbortSignal;
  batch?: BlockBatch;
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
  let node: dagPb.PBNode;
  try {
    node = dagPb.decode(bytes);
  } catch {
    throw notADirectory(what, cid);
  }
  const fields = node.Data === undefined ? undefined : readUnixfsFields(node.Data);
  if (fields?.type === UNIXFS_DIRECTORY) return { kind: 'plain', links: node.Links, blockLength: bytes.length };
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

function shardFromNode(
  cid: CID,
  node: dagPb.PBNode,
  fanout: number | undefined,
  hashType: number | undefined,
  what: string,
): ShardNode {
  const malformed = (why: string) => new BadInputError(`${what}: HAMT shard ${cid.toString()} ${why}`);
  if (hashType !== HAMT_HASH_TYPE) throw malformed(`uses hash type ${hashType ?? 'none'}, not murmur3-x64-64`);
  if (fanout === undefined || fanout < 2 || fanout > 65_536 || (fanout & (fanout - 1)) !== 0) {
    throw malformed(`has fanout ${fanout ?? 'none'}, not a power of two`);
  }
  const bits = Math.log2(fanout);
  const padLength = (fanout - 1).toString(16).length;
  const slots = new Map<number, ShardSlot>();
  for (const link of node.Links) {
    const label = link.Name ?? '';
    const prefix = label.slice(0, padLength);
    const index = /^[0-9A-Fa-f]+$/.test(prefix) && prefix.length === padLength ? parseInt(prefix, 16) : -1;
    if (index < 0 || index >= fanout) throw malformed(`has a link named "${label}" without a slot prefix`);
    if (slots.has(index)) throw malformed(`has two links in slot ${prefix}`);
    if (label.length === padLength) {
      slots.set(index, { kind: 'shard', cid: link.Hash, tsize: link.Tsize });
    } else {
      slots.set(index, { kind: 'entry', entry: { name: label.slice(padLength), cid: link.Hash, tsize: link.Tsize } });
    }
  }
  return { fanout, bits, slots };
}
