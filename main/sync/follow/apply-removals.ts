import { readdir, rmdir } from 'node:fs/promises';
import { CID } from 'multiformats/cid';
import { heldVersionOf, interruptedFileAt, removalOp, type ApplyContext } from './apply-context.js';
import { relParent, trashOrDelete } from './folder-disk.js';
import { isApplierName } from './local-changes.js';

/**
 * The first step of an apply: what the version no longer has leaves the folder, to the trash (trash.ts).
 * Only what the applier wrote goes: a file whose bytes are a version's it wrote (the manifest's, or an
 * interrupted apply's); a folder goes whole when everything in it is such a file, else file by file and
 * the folder stays for what else it holds (a local file, an ignored one), listed as a local change when
 * that is not ignored. A local file at a removed path stays and is listed as added.
 */

const byDepthDeepestFirst = (a: string, b: string): number => b.split('/').length - a.split('/').length || (a < b ? -1 : a > b ? 1 : 0);

/** What a removed folder holds on the disk: the files to remove, and whether anything else is there. */
interface FolderContent {
  ours: string[];
  /** Something not the applier's, not ignored: the folder stays and is listed. */
  local: boolean;
  /** Something ignored: the folder stays, unlisted. */
  ignored: boolean;
}

async function contentOf(ctx: ApplyContext, rel: string, removable: ReadonlySet<string>): Promise<FolderContent> {
  const content: FolderContent = { ours: [], local: false, ignored: false };
  const walk = async (relDir: string): Promise<void> => {
    for (const dirent of await readdir(ctx.disk.abs(relDir), { withFileTypes: true })) {
      const child = `${relDir}/${dirent.name}`;
      if (dirent.isDirectory()) {
        if (await ctx.ignore.isIgnored(child, true)) content.ignored = true;
        else await walk(child);
      } else if (removable.has(child)) content.ours.push(child);
      else if (await ctx.ignore.isIgnored(child, false)) content.ignored = true;
      else if (!isApplierName(dirent.name)) content.local = true;
      // A copy beside a local change in a removed folder is the applier's: it keeps the folder, unlisted.
      else content.ignored = true;
    }
  };
  await walk(rel);
  return content;
}

/** The folders above `rel` the version no longer has (the nearest first). */
async function removedFoldersAbove(ctx: ApplyContext, rel: string): Promise<string[]> {
  const removed: string[] = [];
  for (let folder = relParent(rel); folder !== ''; folder = relParent(folder)) {
    if ((await ctx.to.nodeAt(folder))?.kind === 'dir') break;
    removed.push(folder);
  }
  return removed;
}

/**
 * Removes `files` (paths where the version now has no file) and the empty folders `emptyFolders` it no longer
 * has, with every folder above them that went too.
 */
export async function applyRemovals(ctx: ApplyContext, files: readonly string[], emptyFolders: readonly string[]): Promise<void> {
  const removable = new Set<string>();
  const removedFolders = new Set<string>();
  for (const rel of files) {
    ctx.signal?.throwIfAborted();
    for (const folder of await removedFoldersAbove(ctx, rel)) removedFolders.add(folder);
    const entry = await ctx.entry(rel);
    if (entry !== undefined) removalOp(ctx, rel, entry.kind);
    if (await ctx.ignore.isIgnored(rel, false)) continue;
    const state = await ctx.disk.stateOf(rel);
    if (state.kind === 'absent' || state.kind === 'blocked') continue;
    // The version turned the file into a folder: a folder there is the new one (an interrupted apply made it).
    if (state.kind === 'dir' && (await ctx.to.nodeAt(rel))?.kind === 'dir') continue;
    const candidates = [entry?.kind === 'file' ? CID.parse(entry.cid) : undefined, await interruptedFileAt(ctx, rel)];
    if ((await heldVersionOf(ctx, rel, state, candidates)) !== undefined) removable.add(rel);
    else ctx.changes.set(rel, 'added');
  }
  for (const rel of emptyFolders) {
    if ((await ctx.to.nodeAt(rel))?.kind === 'dir') continue;
    removedFolders.add(rel);
    for (const folder of await removedFoldersAbove(ctx, rel)) removedFolders.add(folder);
  }

  // The topmost removed folders first: one that is only the applier's goes whole.
  const folders = [...removedFolders].sort(byDepthDeepestFirst).reverse();
  const gone = new Set<string>();
  for (const rel of folders) {
    ctx.signal?.throwIfAborted();
    const entry = await ctx.entry(rel);
    if (entry !== undefined) removalOp(ctx, rel, entry.kind);
    if (gone.has(relParent(rel))) {
      gone.add(rel);
      continue;
    }
    if (await ctx.ignore.isIgnored(rel, true)) continue;
    const state = await ctx.disk.stateOf(rel);
    if (state.kind === 'file' || state.kind === 'other') ctx.changes.set(rel, 'added');
    if (state.kind !== 'dir') continue;
    const content = await contentOf(ctx, rel, removable);
    if (content.local || content.ignored) continue;
    ctx.onFile(rel);
    await trashOrDelete(ctx.trash, ctx.disk.abs(rel), true);
    ctx.disk.forget(rel);
    ctx.counts.removed += Math.max(1, content.ours.length);
    for (const file of content.ours) removable.delete(file);
    gone.add(rel);
  }
  for (const rel of removable) {
    ctx.signal?.throwIfAborted();
    ctx.onFile(rel);
    await trashOrDelete(ctx.trash, ctx.disk.abs(rel), true);
    ctx.counts.removed++;
  }
  // What stays of a removed folder holds something that is not the applier's: a folder the version does not
  // have is listed once (as a scan lists it), what is listed below it folded into it.
  const kept: string[] = [];
  for (const rel of [...removedFolders].filter((folder) => !gone.has(folder)).sort(byDepthDeepestFirst)) {
    const state = await ctx.disk.stateOf(rel);
    if (state.kind !== 'dir') continue;
    try {
      await rmdir(ctx.disk.abs(rel));
      ctx.disk.forget(rel);
      ctx.counts.removed++;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error;
      kept.push(rel);
    }
  }
  for (const rel of kept.reverse()) {
    if (hasListedAbove(ctx, rel) || (await ctx.ignore.isIgnored(rel, true)) || !(await contentOf(ctx, rel, new Set())).local) continue;
    for (const listed of [...ctx.changes.keys()]) if (listed.startsWith(`${rel}/`)) ctx.changes.delete(listed);
    ctx.changes.set(rel, 'added');
  }
}

function hasListedAbove(ctx: ApplyContext, rel: string): boolean {
  for (let folder = relParent(rel); folder !== ''; folder = relParent(folder)) if (ctx.changes.has(folder)) return true;
  return false;
}
