import * as dagPb from '@ipld/dag-pb';
import type { CID } from 'multiformats/cid';
import { BadInputError, NotFoundError } from '../../base/errors.js';
import { PendingBlocks, EMPTY_DIRECTORY_CID, readBlock } from './blocks.js';
import { readDirectoryNode, type ReadContext } from './directory-node.js';
import { planDirectoryEdit, type PlanContext } from './edit-directory.js';
import { utf8, validateEntryName } from './entry-name.js';
import { lookupInShard } from './hamt-walk.js';
import { decodePbNode } from './pb-decode.js';
import { readUnixfsFields, UNIXFS_DIRECTORY, UNIXFS_HAMT_SHARD } from './unixfs-data.js';
import { DEFAULT_LAYOUT, type DirectoryBlockstore, type DirectoryEditOptions, type DirectoryEditResult, type DirectoryEntry } from './types.js';

/**
 * Finds `name` in the directory `dir` (plain or HAMT), reading only the shards on its hash path.
 * BadInputError when `dir` is not a UnixFS directory; NotFoundError when a needed block is not held.
 */
export async function lookupEntry(
  blockstore: Pick<DirectoryBlockstore, 'get'>,
  dir: CID,
  name: string,
  options: Pick<DirectoryEditOptions, 'signal' | 'shardCache'> = {},
): Promise<DirectoryEntry | undefined> {
  return lookupWith({ blockstore, signal: options.signal, shardCache: options.shardCache }, dir, name);
}

async function lookupWith(ctx: ReadContext, dir: CID, name: string): Promise<DirectoryEntry | undefined> {
  const node = await readDirectoryNode(ctx, dir, 'path');
  if (node.kind === 'hamt') return lookupInShard(ctx, node.shard, { name, nameBytes: utf8(name) }, dir.toString());
  const entry = node.entries.find((candidate) => candidate.name === name);
  return entry === undefined ? undefined : { name, cid: entry.cid, tsize: entry.tsize };
}

async function isDirectory(ctx: ReadContext, cid: CID): Promise<boolean> {
  if (cid.code !== dagPb.code) return false;
  if (ctx.shardCache?.get(cid) !== undefined) return true;
  const bytes = await readBlock(ctx.blockstore, cid, 'path', ctx);
  try {
    const data = decodePbNode(bytes).data;
    const type = data === undefined ? undefined : readUnixfsFields(data)?.type;
    return type === UNIXFS_DIRECTORY || type === UNIXFS_HAMT_SHARD;
  } catch {
    return false;
  }
}

function planContext(blockstore: DirectoryBlockstore, options: DirectoryEditOptions): PlanContext {
  const pending = new PendingBlocks(options.cidVersion ?? DEFAULT_LAYOUT.cidVersion);
  return { blockstore, pending, signal: options.signal, shardCache: options.shardCache };
}

function checkPath(path: readonly string[]): void {
  if (path.length === 0) throw new BadInputError('path: must name at least one entry');
  path.forEach((segment, i) => validateEntryName(segment, `path segment ${i + 1}`));
}

/**
 * Sets `path` under `root` to `cid` (PUT /ipfs/{root}/{path}): missing intermediate directories are
 * created empty, an existing entry of the last name is replaced, and every directory on the way is
 * rewritten with its new Tsize. BadInputError when the path is empty or bad, or goes through a
 * non-directory; NotFoundError when a needed block is not held.
 */
export async function setPath(
  blockstore: DirectoryBlockstore,
  root: CID,
  path: readonly string[],
  cid: CID,
  options: DirectoryEditOptions = {},
): Promise<DirectoryEditResult> {
  checkPath(path);
  const ctx = planContext(blockstore, options);
  await readDirectoryNode(ctx, root, 'cid');
  const chain: CID[] = [root];
  for (let i = 0; i < path.length - 1; i++) {
    const entry = await lookupWith(ctx, chain[i] as CID, path[i] as string);
    if (entry === undefined) break;
    if (!(await isDirectory(ctx, entry.cid))) {
      throw new BadInputError(`path: "${path.slice(0, i + 1).join('/')}" is not a directory`);
    }
    chain.push(entry.cid);
  }
  const result = await rewriteUpwards(ctx, chain, path, [path[path.length - 1] as string, cid], options);
  await ctx.pending.commit(blockstore, options.signal);
  return result;
}

/**
 * Removes the entry at `path` under `root` (DELETE /ipfs/{root}/{path}) and rewrites the directories
 * above it. NotFoundError (naming the path) when any segment does not exist or is not a directory.
 */
export async function removePath(
  blockstore: DirectoryBlockstore,
  root: CID,
  path: readonly string[],
  options: DirectoryEditOptions = {},
): Promise<DirectoryEditResult> {
  checkPath(path);
  const ctx = planContext(blockstore, options);
  await readDirectoryNode(ctx, root, 'cid');
  const chain: CID[] = [root];
  const notFound = () => new NotFoundError(`path: "${path.join('/')}" does not exist under ${root.toString()}`);
  for (let i = 0; i < path.length; i++) {
    const entry = await lookupWith(ctx, chain[i] as CID, path[i] as string);
    if (entry === undefined) throw notFound();
    if (i < path.length - 1) {
      if (!(await isDirectory(ctx, entry.cid))) throw notFound();
      chain.push(entry.cid);
    }
  }
  const result = await rewriteUpwards(ctx, chain, path, undefined, options);
  await ctx.pending.commit(blockstore, options.signal);
  return result;
}

/**
 * Applies the change at the deepest level (`set` = [name, cid], or removal of the last name) and then
 * replaces each parent's link with the new child directory and its cumulative size. Levels past the
 * existing `chain` start from the empty directory.
 */
async function rewriteUpwards(
  ctx: PlanContext,
  chain: readonly CID[],
  path: readonly string[],
  set: readonly [string, CID] | undefined,
  options: DirectoryEditOptions,
): Promise<DirectoryEditResult> {
  const last = path.length - 1;
  const dirAt = (level: number) => chain[level] ?? EMPTY_DIRECTORY_CID;
  let result = await planDirectoryEdit(ctx, dirAt(last), set === undefined ? { remove: [path[last] as string] } : { add: [set] }, options);
  for (let level = last - 1; level >= 0; level--) {
    result = await planDirectoryEdit(ctx, dirAt(level), { add: [[path[level] as string, result.cid, result.size]] }, options);
  }
  return result;
}
