import type { CID } from 'multiformats/cid';
import { BadInputError, NotFoundError } from '../../base/errors.js';
import { PendingBlocks, cumulativeSize } from './blocks.js';
import { readDirectoryNode, type DirectoryNode, type ReadContext } from './directory-node.js';
import { countEntry, emptyStats, shouldShard } from './directory-stats.js';
import { utf8, validateEntryName } from './entry-name.js';
import { fromDirectoryEntry, toEntry, type Entry, type NameKey } from './entries.js';
import { DEFAULT_FANOUT, buildShard } from './hamt-build.js';
import { editShard, type Change, type ShardEditContext } from './hamt-edit.js';
import { walkShard } from './hamt-walk.js';
import { encodePlainDirectory, entriesOfPlainNode, sortEntries } from './plain-directory.js';
import {
  DEFAULT_LAYOUT,
  type DirectoryBlockstore,
  type DirectoryChanges,
  type DirectoryEditOptions,
  type DirectoryEditResult,
  type DirectoryLayout,
  type DirectoryStats,
} from './types.js';

/**
 * Adds, replaces and removes entries of a UnixFS directory (plain or HAMT) and returns the new root.
 * The result is the directory ipfs-unixfs-importer 17 would build from scratch for the resulting set of
 * entries (same layout decision, same HAMT, same Tsize), so its CID depends only on that set. Cost: a
 * HAMT edit reads and rewrites only the shards on the paths to the changed slots; a plain directory is
 * bounded by the shard threshold. Nothing is written unless the whole edit succeeds, and only blocks the
 * store does not hold yet are written.
 *
 * Errors: BadInputError for a bad name, a name both added and removed or given twice, or a root that is
 * not a UnixFS directory; NotFoundError for a removed name that does not exist or a block not held
 * (the root, a shard on a path, or an added child whose size has to be read).
 */
export async function editDirectory(
  blockstore: DirectoryBlockstore,
  root: CID,
  changes: DirectoryChanges,
  options: DirectoryEditOptions = {},
): Promise<DirectoryEditResult> {
  const prepared = await prepareDirectoryEdit(blockstore, root, changes, options);
  await prepared.commit();
  return prepared.result;
}

export interface PreparedDirectoryEdit {
  /** The new root, computed but not yet written. */
  result: DirectoryEditResult;
  /** Writes the new blocks (those the store lacks); returns how many were written. */
  commit(): Promise<number>;
}

/**
 * Computes an edit without writing anything, so that a caller can check rules that need the new root
 * (e.g. "pin_new: already pinned") before any change. Same errors as {@link editDirectory}.
 */
export async function prepareDirectoryEdit(
  blockstore: DirectoryBlockstore,
  root: CID,
  changes: DirectoryChanges,
  options: DirectoryEditOptions = {},
): Promise<PreparedDirectoryEdit> {
  const pending = new PendingBlocks(options.cidVersion ?? DEFAULT_LAYOUT.cidVersion);
  const result = await planDirectoryEdit({ blockstore, pending, signal: options.signal, shardCache: options.shardCache }, root, changes, options);
  return { result, commit: () => pending.commit(blockstore, options.signal) };
}

export interface PlanContext extends ReadContext {
  pending: PendingBlocks;
}

export interface NormalizedChanges {
  adds: Entry[];
  removes: NameKey[];
}

/** Checks names and the add/remove rules, and reads each added child's size when not given. */
export async function normalizeChanges(ctx: ReadContext, changes: DirectoryChanges): Promise<NormalizedChanges> {
  const seen = new Map<string, string>();
  const adds: Entry[] = [];
  const removes: NameKey[] = [];
  const claim = (name: string, where: string) => {
    const earlier = seen.get(name);
    if (earlier !== undefined) throw new BadInputError(`${where}: "${name}" is also given in ${earlier}`);
    seen.set(name, where);
  };
  (changes.add ?? []).forEach(([name, cid, tsize], i) => {
    validateEntryName(name, `add[${i}] name`);
    if (tsize !== undefined && (!Number.isSafeInteger(tsize) || tsize < 0)) {
      throw new BadInputError(`add[${i}] size: must be a non-negative integer`);
    }
    claim(name, `add[${i}]`);
    adds.push(toEntry(name, cid, tsize));
  });
  (changes.remove ?? []).forEach((name, i) => {
    validateEntryName(name, `remove[${i}]`);
    claim(name, `remove[${i}]`);
    removes.push({ name, nameBytes: utf8(name) });
  });
  for (const entry of adds) {
    ctx.signal?.throwIfAborted();
    entry.tsize ??= await cumulativeSize(ctx.blockstore, entry.cid, `add "${entry.name}"`, ctx);
  }
  return { adds, removes };
}

/** Like {@link editDirectory} but leaves the new blocks in `ctx.pending` for the caller to commit. */
export async function planDirectoryEdit(
  ctx: PlanContext,
  root: CID,
  changes: DirectoryChanges,
  options: DirectoryEditOptions = {},
): Promise<DirectoryEditResult> {
  // The CID version is the pending blocks': every block of one edit is written in one version.
  const layout: DirectoryLayout = {
    shardSplitThresholdBytes: options.shardSplitThresholdBytes ?? DEFAULT_LAYOUT.shardSplitThresholdBytes,
    shardSplitStrategy: options.shardSplitStrategy ?? DEFAULT_LAYOUT.shardSplitStrategy,
    cidVersion: ctx.pending.cidVersion,
  };
  const what = root.toString();
  const node = await readDirectoryNode(ctx, root, 'cid');
  const { adds, removes } = await normalizeChanges(ctx, changes);
  if (adds.length === 0 && removes.length === 0) {
    return { cid: root, size: await cumulativeSize(ctx.blockstore, root, 'cid', ctx), stats: await statsOfNode(ctx, root, node, options) };
  }

  if (node.kind === 'hamt') {
    const stats = { ...(await statsOfNode(ctx, root, node, options)) };
    const attempt: ShardEditContext = { ...ctx, pending: new PendingBlocks(ctx.pending.cidVersion), displaced: [], what };
    const changeList: Change[] = [...adds.map((entry): Change => ({ kind: 'add', entry })), ...removes.map((target): Change => ({ kind: 'remove', target }))];
    const outcome = await editShard(attempt, node.shard, 0, changeList, true);
    for (const entry of adds) countEntry(stats, entry, 1);
    for (const entry of attempt.displaced) countEntry(stats, entry, -1);
    if (shouldShard(stats, layout)) {
      if (outcome.kind !== 'shard') throw new Error('a HAMT root edit must yield a shard');
      ctx.pending.absorb(attempt.pending);
      return { cid: outcome.cid, size: outcome.size, stats: { ...stats, kind: 'hamt' } };
    }
    const existing: Entry[] = [];
    await walkShard(ctx, node.shard, what, (entry) => existing.push(fromDirectoryEntry(entry)));
    return writeDirectory(ctx, applyChanges(sortEntries(existing), adds, removes, what), layout);
  }

  return writeDirectory(ctx, applyChanges(entriesOfPlainNode(node.entries), adds, removes, what), layout);
}

function applyChanges(existing: Entry[], adds: readonly Entry[], removes: readonly NameKey[], what: string): Entry[] {
  const byName = new Map<string, Entry>();
  for (const entry of existing) byName.set(entry.name, entry);
  for (const target of removes) {
    if (!byName.delete(target.name)) {
      throw new NotFoundError(`remove: no entry named "${target.name}" in directory ${what}`);
    }
  }
  for (const entry of adds) byName.set(entry.name, entry);
  return sortEntries([...byName.values()]);
}

/** Writes the directory for a full entry list, plain or HAMT as the importer would decide. */
function writeDirectory(ctx: PlanContext, sorted: Entry[], layout: DirectoryLayout): DirectoryEditResult {
  const stats = emptyStats('plain');
  for (const entry of sorted) countEntry(stats, entry, 1);
  if (shouldShard(stats, layout)) {
    const shard = buildShard(ctx, sorted, 0, DEFAULT_FANOUT);
    return { ...shard, stats: { ...stats, kind: 'hamt' } };
  }
  const { bytes, size } = encodePlainDirectory(sorted);
  return { cid: ctx.pending.add(bytes), size, stats };
}

async function statsOfNode(ctx: ReadContext, cid: CID, node: DirectoryNode, options: DirectoryEditOptions): Promise<DirectoryStats> {
  const known = options.statsOf?.(cid);
  if (known !== undefined) return known;
  const stats = emptyStats(node.kind);
  const count = (entry: { name: string; cid: CID; tsize: number | undefined }) => countEntry(stats, fromDirectoryEntry(entry), 1);
  if (node.kind === 'plain') entriesOfPlainNode(node.entries).forEach(count);
  else await walkShard(ctx, node.shard, cid.toString(), count);
  return stats;
}

/**
 * Counts a directory: entries and size estimates, walking a HAMT whole. Also checks that `cid` is a
 * UnixFS directory whose shards are all readable and well formed.
 */
export async function directoryStats(
  blockstore: Pick<DirectoryBlockstore, 'get'>,
  cid: CID,
  options: { signal?: AbortSignal; shardCache?: DirectoryEditOptions['shardCache']; onProgress?: (progress: { shards: number; entries: number }) => void } = {},
): Promise<DirectoryStats> {
  const ctx: ReadContext = { blockstore, signal: options.signal, shardCache: options.shardCache };
  const node = await readDirectoryNode(ctx, cid, 'cid');
  const stats = emptyStats(node.kind);
  let shards = node.kind === 'hamt' ? 1 : 0;
  const count = (entry: { name: string; cid: CID; tsize: number | undefined }) => countEntry(stats, fromDirectoryEntry(entry), 1);
  if (node.kind === 'plain') {
    entriesOfPlainNode(node.entries).forEach(count);
  } else {
    await walkShard(ctx, node.shard, cid.toString(), count, () => {
      shards++;
      if (shards % 256 === 0) options.onProgress?.({ shards, entries: stats.entries });
    });
  }
  options.onProgress?.({ shards, entries: stats.entries });
  return stats;
}
