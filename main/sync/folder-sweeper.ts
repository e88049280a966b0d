import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import type { FileStat } from './coalescer.js';
import type { EntryInspector } from './entry-inspector.js';
import { describeFsError } from './scanner.js';
import { childPath } from './watch-decisions.js';
import type { WatchSession } from './watch-session.js';

/**
 * Folders that appear (created, moved in, or put in a file's place): reported, and their content read.
 * chokidar reads a new folder before it watches it, so what is written in between would be missed:
 * the folder is read again `resweepMs` later (files already pending are not disturbed). A sub-folder
 * chokidar has not reported (created in that gap) is watched and reported here.
 */
export class FolderSweeper {
  constructor(
    private readonly session: WatchSession,
    private readonly inspector: EntryInspector,
    /** Starts watching a folder (chokidar's add). */
    private readonly watchFolder: (abs: string) => void,
    private readonly resweepMs: number,
  ) {}

  /** A folder appeared at `rel`: reported once what was stored in its place (a file?) is known. */
  appeared(rel: string): void {
    const { session } = this;
    session.dirs.add(rel);
    const seen = session.known.get(rel);
    const { lookup } = session.hooks;
    if (seen !== undefined || !lookup) {
      this.reportFolder(rel, seen);
      return;
    }
    lookup(rel).then(
      (stored) => {
        if (!session.closed) this.reportFolder(rel, stored);
      },
      (error: unknown) => session.hooks.onError?.(error instanceof Error ? error : new Error(String(error))),
    );
  }

  /** Reads the folder `rel` and inspects its files; sub-folders not yet watched appear. */
  async sweep(rel: string): Promise<void> {
    const { session } = this;
    let entries: Dirent[];
    try {
      entries = await readdir(session.absOf(rel), { withFileTypes: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') session.report({ path: rel, reason: describeFsError(error) });
      return;
    }
    if (session.closed) return;
    for (const entry of entries) {
      const child = childPath(rel, entry.name);
      if (!entry.isDirectory()) this.inspector.inspect(child);
      else if (!session.dirs.has(child) && !session.rules.isIgnored(child, true)) {
        this.watchFolder(session.absOf(child));
        this.appeared(child);
      }
    }
  }

  /** Reports a folder that appeared; `replaced`: the file that was in its place. */
  private reportFolder(rel: string, replaced: FileStat | undefined): void {
    const { session } = this;
    // A folder in a file's place: the file goes first, so the coalescer sees the swap in order.
    if (replaced !== undefined) {
      session.pending.drop(rel);
      session.known.delete(rel);
      session.emit({ kind: 'unlink', path: rel, ...replaced });
    }
    session.emit({ kind: 'addDir', path: rel });
    if (replaced !== undefined) session.hooks.onFolderAppeared?.(rel);
    this.sweepNew(rel);
  }

  private sweepNew(rel: string): void {
    void this.sweep(rel);
    const again = setTimeout(() => {
      if (!this.session.closed && this.session.dirs.has(rel)) void this.sweep(rel);
    }, this.resweepMs);
    again.unref();
  }
}
