import { mkdir, utimes } from 'node:fs/promises';
import { CID } from 'multiformats/cid';
import { inspectNode } from '../../content/read/index.js';
import { fromSourceName } from '../restore-name.js';
import { unixfsMtimeSeconds } from '../restore-write.js';
import {
  heldVersionOf,
  holdsBytesOf,
  interruptedFileAt,
  nameTaken,
  putFileOp,
  putFolderOp,
  putUnwrittenFileOp,
  writeFile,
  type ApplyContext,
} from './apply-context.js';
import { besideCopiesOf, relName, relParent } from './folder-disk.js';
import { IGNORE_FILE } from './folder-ignore.js';

/**
 * The second step of an apply: the version's new and changed files written, each under a temporary name
 * then renamed into place (restore-write.ts), into folders made as needed, never through a link. A file
 * is replaced only when it holds bytes the applier wrote (or the new ones already: a rerun after a kill);
 * a local change keeps its name and the incoming file goes beside it, once.
 */

/** Files written at once: their reads, writes and fsyncs overlap. */
const WRITE_CONCURRENCY = 4;

export interface WriteSteps {
  /** The folder at `rel` exists as a real folder of the version (made if needed); false when something local holds its place. */
  ensureFolder(rel: string): Promise<boolean>;
  writeOne(rel: string): Promise<void>;
}

export function writeSteps(ctx: ApplyContext): WriteSteps {
  const folders = new Map<string, Promise<boolean>>();
  // Names beside local changes are chosen and taken one at a time (two long names may shorten alike).
  let besideTurn: Promise<unknown> = Promise.resolve();

  const placeFolder = async (rel: string): Promise<boolean> => {
    if (!(await ensureFolder(relParent(rel)))) return false;
    const node = await ctx.to.nodeAt(rel);
    if (node?.kind === 'dir') putFolderOp(ctx, rel, node.cid);
    if (await ctx.ignore.isIgnored(rel, true)) return false;
    const state = await ctx.disk.stateOf(rel);
    if (state.kind === 'dir') return true;
    if (state.kind === 'absent') {
      await mkdir(ctx.disk.abs(rel)).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'EEXIST') throw error;
      });
      return (await ctx.disk.stateOf(rel)).kind === 'dir';
    }
    if (state.kind !== 'blocked') ctx.changes.set(rel, 'modified');
    return false;
  };

  const ensureFolder = (rel: string): Promise<boolean> => {
    if (rel === '') return Promise.resolve(true);
    let placed = folders.get(rel);
    if (placed === undefined) {
      placed = placeFolder(rel);
      folders.set(rel, placed);
    }
    return placed;
  };

  const writeBeside = async (rel: string, cid: CID): Promise<void> => {
    for (const copy of await besideCopiesOf(ctx.disk, rel)) {
      const state = await ctx.disk.stateOf(copy);
      // Written by an earlier run of this apply (or an earlier version with these bytes): not again.
      if (state.kind === 'file' && (await holdsBytesOf(ctx, copy, state.stat.size, cid))) return;
    }
    const parent = relParent(rel);
    const name = fromSourceName(relName(rel), ctx.source, ctx.stamp, nameTaken(ctx.disk.abs(parent)));
    await writeFile(ctx, cid, parent === '' ? name : `${parent}/${name}`);
  };

  const writeOne = async (rel: string): Promise<void> => {
    const node = await ctx.to.nodeAt(rel);
    if (node?.kind !== 'file') return;
    ctx.onFile(rel);
    if ((await ctx.ignore.isIgnored(rel, false)) || !(await ensureFolder(relParent(rel)))) {
      await putUnwrittenFileOp(ctx, rel, node.cid);
      return;
    }
    const state = await ctx.disk.stateOf(rel);
    if (state.kind === 'absent') {
      putFileOp(ctx, rel, node.cid, await writeFile(ctx, node.cid, rel));
    } else {
      const entry = await ctx.entry(rel);
      const held = await heldVersionOf(ctx, rel, state, [
        entry?.kind === 'file' ? CID.parse(entry.cid) : undefined,
        node.cid,
        await interruptedFileAt(ctx, rel),
      ]);
      if (held !== undefined && state.kind === 'file') {
        putFileOp(ctx, rel, node.cid, held.equals(node.cid) ? state.stat : await writeFile(ctx, node.cid, rel));
      } else {
        const turn = besideTurn.then(() => writeBeside(rel, node.cid));
        besideTurn = turn.catch(() => undefined);
        await turn;
        ctx.changes.set(rel, 'modified');
        await putUnwrittenFileOp(ctx, rel, node.cid);
      }
    }
    if (relName(rel) === IGNORE_FILE) ctx.ignore.reload(relParent(rel));
  };

  return { ensureFolder, writeOne };
}

/** Writes `files` (paths where the version has a new or changed file) and makes `emptyFolders`. */
export async function applyWrites(ctx: ApplyContext, files: readonly string[], emptyFolders: readonly string[]): Promise<void> {
  const steps = writeSteps(ctx);
  for (const rel of emptyFolders) await steps.ensureFolder(rel);
  let next = 0;
  let failed = false;
  const worker = async (): Promise<void> => {
    while (!failed && next < files.length) {
      const rel = files[next++];
      if (rel === undefined) break;
      ctx.signal?.throwIfAborted();
      try {
        await steps.writeOne(rel);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  // Every worker stops before the error is thrown: nothing is written once the apply has failed.
  const outcomes = await Promise.allSettled(Array.from({ length: Math.min(WRITE_CONCURRENCY, files.length) }, worker));
  const failure = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
  if (failure !== undefined) throw failure.reason;
}

/** Sets the folders' modification times from the version's metadata, once their files are written. */
export async function keepFolderTimes(ctx: ApplyContext): Promise<void> {
  for (const op of ctx.folders.values()) {
    if (op.op !== 'put') continue;
    if ((await ctx.disk.stateOf(op.path)).kind !== 'dir') continue;
    const mtime = unixfsMtimeSeconds(await inspectNode(ctx.blocks, CID.parse(op.cid), { signal: ctx.signal }));
    if (mtime !== undefined) await utimes(ctx.disk.abs(op.path), mtime, mtime);
  }
}
