import * as dagPb from '@ipld/dag-pb';
import type { CID } from 'multiformats/cid';
import { readBlock } from './blocks.js';
import { decodeDirectoryNode, readDirectoryNode, readShard, type DirectoryNode, type ReadContext, type ShardNode, type ShardSlot } from './directory-node.js';
import { walkShard } from './hamt-walk.js';
import { decodePbNode } from './pb-decode.js';
import type { DirectoryEntry } from './types.js';
import { readUnixfsFields, UNIXFS_DIRECTORY, UNIXFS_HAMT_SHARD } from './unixfs-data.js';

/**
 * What changed between two versions of a directory tree, as `/`-separated paths relative to the root,
 * sorted. Files and symlinks are listed by their own path; a directory is listed only through what it
 * holds, except an empty one, listed as `path/` so that it is not lost. A name that changes type (a
 * directory replaced by a file, or the reverse) is what it held removed and what it holds now added.
 */
export interface TreeDiff {
  added: string[];
  modified: string[];
  removed: string[];
}

/**
 * The changes from the tree at `from` to the tree at `to`. Only directories whose CIDs differ are read,
 * and in a HAMT directory only the shards whose CIDs differ, so the cost grows with the change, not with
 * the size of the tree. Both roots must be UnixFS directories (else a BadInputError naming `what`).
 */
export async function diffTrees(ctx: ReadContext, from: CID, to: CID, what = 'root'): Promise<TreeDiff> {
  const diff: TreeDiff = { added: [], modified: [], removed: [] };
  if (!from.equals(to)) {
    const [before, after] = await Promise.all([readDirectoryNode(ctx, from, what), readDirectoryNode(ctx, to, what)]);
    await diffDirectories(ctx, before, after, '', diff, what);
  }
  for (const list of [diff.added, diff.modified, diff.removed]) list.sort(byCodeUnits);
  return diff;
}

function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

async function diffDirectories(ctx: ReadContext, before: DirectoryNode, after: DirectoryNode, prefix: string, diff: TreeDiff, what: string): Promise<void> {
  if (before.kind === 'hamt' && after.kind === 'hamt' && before.shard.fanout === after.shard.fanout) {
    await diffShards(ctx, before.shard, after.shard, prefix, diff, what);
    return;
  }
  // A plain directory (or a change of layout): its entries are all in hand, or all needed.
  await diffEntries(ctx, await entriesOf(ctx, before, what), await entriesOf(ctx, after, what), prefix, diff, what);
}

/** Two shards of the same fanout: slots holding the same child shard are skipped without reading it. */
async function diffShards(ctx: ReadContext, before: ShardNode, after: ShardNode, prefix: string, diff: TreeDiff, what: string): Promise<void> {
  const slots = new Set([...before.slots.keys(), ...after.slots.keys()]);
  for (const index of slots) {
    const old = before.slots.get(index);
    const now = after.slots.get(index);
    if (old?.kind === 'shard' && now?.kind === 'shard') {
      if (old.cid.equals(now.cid)) continue;
      const [oldShard, newShard] = await Promise.all([readShard(ctx, old.cid, before.fanout, what), readShard(ctx, now.cid, after.fanout, what)]);
      await diffShards(ctx, oldShard, newShard, prefix, diff, what);
      continue;
    }
    if (old?.kind === 'entry' && now?.kind === 'entry' && old.entry.name === now.entry.name && old.entry.cid.equals(now.entry.cid)) continue;
    // An entry on one side and a shard on the other (names collided or parted), or different entries:
    // what each side holds under this slot, compared by name.
    await diffEntries(ctx, await slotEntries(ctx, old, before.fanout, what), await slotEntries(ctx, now, after.fanout, what), prefix, diff, what);
  }
}

async function slotEntries(ctx: ReadContext, slot: ShardSlot | undefined, fanout: number, what: string): Promise<DirectoryEntry[]> {
  if (slot === undefined) return [];
  if (slot.kind === 'entry') return [slot.entry];
  const entries: DirectoryEntry[] = [];
  await walkShard(ctx, await readShard(ctx, slot.cid, fanout, what), what, (entry) => entries.push(entry));
  return entries;
}

async function entriesOf(ctx: ReadContext, node: DirectoryNode, what: string): Promise<readonly DirectoryEntry[]> {
  if (node.kind === 'plain') return node.entries;
  const entries: DirectoryEntry[] = [];
  await walkShard(ctx, node.shard, what, (entry) => entries.push(entry));
  return entries;
}

async function diffEntries(
  ctx: ReadContext,
  before: readonly DirectoryEntry[],
  after: readonly DirectoryEntry[],
  prefix: string,
  diff: TreeDiff,
  what: string,
): Promise<void> {
  const old = new Map(before.map((entry) => [entry.name, entry]));
  for (const entry of after) {
    const path = prefix + entry.name;
    const previous = old.get(entry.name);
    old.delete(entry.name);
    if (previous === undefined) {
      await listTree(ctx, entry.cid, path, diff.added, what);
      continue;
    }
    if (previous.cid.equals(entry.cid)) continue;
    const [was, is] = await Promise.all([directoryOrNothing(ctx, previous.cid, what), directoryOrNothing(ctx, entry.cid, what)]);
    if (was !== undefined && is !== undefined) {
      await diffDirectories(ctx, was, is, `${path}/`, diff, what);
    } else if (was === undefined && is === undefined) {
      diff.modified.push(path);
    } else {
      await listTree(ctx, previous.cid, path, diff.removed, what);
      await listTree(ctx, entry.cid, path, diff.added, what);
    }
  }
  for (const [name, entry] of old) await listTree(ctx, entry.cid, prefix + name, diff.removed, what);
}

/** Every file under `cid` (itself when it is not a directory), as paths under `path`, into `out`. */
async function listTree(ctx: ReadContext, cid: CID, path: string, out: string[], what: string): Promise<void> {
  const directory = await directoryOrNothing(ctx, cid, what);
  if (directory === undefined) {
    out.push(path);
    return;
  }
  const entries = await entriesOf(ctx, directory, what);
  if (entries.length === 0) {
    out.push(`${path}/`);
    return;
  }
  for (const entry of entries) await listTree(ctx, entry.cid, `${path}/${entry.name}`, out, what);
}

/**
 * The node of a UnixFS directory or HAMT root, read once; undefined for a raw block, a file, a symlink or
 * anything else (none of which is read further).
 */
async function directoryOrNothing(ctx: ReadContext, cid: CID, what: string): Promise<DirectoryNode | undefined> {
  if (cid.code !== dagPb.code) return undefined;
  const bytes = await readBlock(ctx.blockstore, cid, what, ctx);
  let type: number | undefined;
  try {
    const data = decodePbNode(bytes).data;
    type = data === undefined ? undefined : readUnixfsFields(data)?.type;
  } catch {
    return undefined;
  }
  return type === UNIXFS_DIRECTORY || type === UNIXFS_HAMT_SHARD ? decodeDirectoryNode(ctx, cid, bytes, what) : undefined;
}
