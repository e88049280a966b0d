import type { Dirent, Stats } from 'node:fs';
import { constants } from 'node:fs';
import { access, lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { FSWatcher } from 'chokidar';
import { systemClock, type Clock } from '../base/clock.js';
import type { FileStat, RawEvent } from './coalescer.js';
import { IGNORE_FILE, isIgnoreFile, loadIgnoreFile, type IgnoreRules } from './ignore-rules.js';
import { describeFsError, type Unreadable } from './scanner.js';
import { createWriteStability } from './write-stability.js';

/**
 * The one chokidar import. Watches a sync folder and emits raw events for the coalescer.
 *
 * - Folders only: chokidar watches each folder, and a folder's own fs.watch events (`raw`) tell which
 *   of its files changed; one lstat per event tells how. New folders are read for their files.
 * - No polling: chokidar's fs.watch backend (inotify on Linux, FSEvents on macOS, ReadDirectoryChangesW
 *   on Windows), so an idle folder costs no CPU; `usingPolling` reports it (CHOKIDAR_USEPOLLING can
 *   force polling from the environment, which the caller should refuse or log).
 * - `ignoreInitial`: the scanner compares the disk with the stored state; the watcher only reports
 *   what changes after it is ready. Start the watcher, then scan, so nothing falls between them.
 * - Our own stability check instead of `awaitWriteFinish`: a file is reported only after its size
 *   AND mtime held still for `stabilityMs` (chokidar's checks size only, and throttles `change`).
 *   The poll timer runs only while a file is pending.
 * - Ignore rules are applied on every event; `.pinfoldignore` files are re-read when they change,
 *   and `onIgnoreFileChanged` asks the caller to rescan that subtree (newly ignored files leave the
 *   root, newly included ones join it).
 * - Symlinks are neither followed nor synced. Unreadable entries are reported, not thrown.
 */

export const DEFAULT_STABILITY_MS = 200;
export const DEFAULT_STABILITY_POLL_MS = 50;

export interface WatcherInit {
  /** Absolute path of the sync folder. */
  root: string;
  rules: IgnoreRules;
  onEvent: (event: RawEvent) => void;
  onUnreadable?: (entry: Unreadable) => void;
  /** A `.pinfoldignore` in `relDir` was created, changed or deleted; the rules already hold the new text. */
  onIgnoreFileChanged?: (relDir: string) => void;
  /** A folder appeared where a file was: scan `relDir` against the stored state (the file is gone). */
  onFolderAppeared?: (relDir: string) => void;
  /** The folder itself disappeared (unmounted drive, deleted): apply the unmounted-drive rule. */
  onRootGone?: () => void;
  onError?: (error: Error) => void;
  /**
   * The identity a file had before it was deleted (the stored state), to pair moves. Asked only for a
   * name this session has not seen; an event that needs it is told once it answers.
   */
  lookup?: (relPath: string) => Promise<FileStat | undefined>;
  stabilityMs?: number;
  stabilityPollMs?: number;
  clock?: Clock;
}

export interface SyncWatcher {
  close(): Promise<void>;
  /** Files seen changing that have not yet held still. */
  readonly pendingWrites: number;
  readonly usingPolling: boolean;
}

export async function startWatcher(init: WatcherInit): Promise<SyncWatcher> {
  const root = path.resolve(init.root);
  const { rules } = init;
  const clock = init.clock ?? systemClock;
  const stabilityMs = init.stabilityMs ?? DEFAULT_STABILITY_MS;
  const pollMs = init.stabilityPollMs ?? DEFAULT_STABILITY_POLL_MS;
  const pending = createWriteStability(stabilityMs);
  // Identity of files reported during this session, for move pairing before the state catches up.
  const known = new Map<string, FileStat>();
  let timer: NodeJS.Timeout | undefined;
  let polling = false;
  let closed = false;

  const relOf = (abs: string): string | undefined => {
    const rel = path.relative(root, abs);
    if (rel === '') return '';
    if (rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
    return rel.split(path.sep).join('/');
  };
  const report = (entry: Unreadable): void => init.onUnreadable?.(entry);

  const absOf = (rel: string): string => path.join(root, ...rel.split('/'));

  // Folders being watched ('' = the root): a name that vanished from one of these was a folder, and
  // chokidar reports it (unlinkDir); any other vanished name is reported as an unlinked file.
  const dirs = new Set<string>();

  // chokidar watches folders only. A watch per file costs a stat and an inotify watch each, several
  // times what the first sync of a 10,000-file folder costs in all, and can exhaust the per-user
  // inotify limit; a folder's own watch already sees every file in it created, written, renamed or
  // deleted (the `raw` events below), as Syncthing's watcher relies on.
  const ignored = (abs: string, stats?: Stats): boolean => {
    const rel = relOf(abs);
    if (rel === undefined) return true;
    if (rel === '') return false;
    if (stats !== undefined && !stats.isDirectory()) return true;
    return rules.isIgnored(rel, stats?.isDirectory() ?? false);
  };
  /** Whether a file event at `rel` is out of the sync (the ignore file itself is always followed). */
  const ignoredFile = (rel: string): boolean => !isIgnoreFile(rel) && rules.isIgnored(rel, false);

  const fsw = new FSWatcher({
    persistent: true,
    ignoreInitial: true,
    followSymlinks: false,
    usePolling: false,
    atomic: false,
    alwaysStat: false,
    ignorePermissionErrors: true,
    awaitWriteFinish: false,
    ignored,
  });

  const schedule = (): void => {
    if (timer || closed || pending.size === 0) return;
    timer = setTimeout(() => {
      timer = undefined;
      void poll();
    }, pollMs);
    timer.unref();
  };

  const poll = async (): Promise<void> => {
    if (polling || closed) return;
    polling = true;
    try {
      const now = clock.nowMs();
      await Promise.all(
        pending.pendingNow().map(async ([rel, entry]) => {
          const abs = absOf(rel);
          let info: Stats;
          try {
            info = await lstat(abs);
          } catch (error) {
            pending.drop(rel);
            if ((error as NodeJS.ErrnoException).code !== 'ENOENT') report({ path: rel, reason: describeFsError(error) });
            return;
          }
          if (!pending.isPending(rel, entry)) return;
          if (info.isSymbolicLink() || info.isDirectory()) {
            // A folder in its place is chokidar's to report (addDir); a symlink is not synced.
            pending.drop(rel);
            return;
          }
          if (!info.isFile()) {
            pending.drop(rel);
            report({ path: rel, reason: 'not a regular file' });
            return;
          }
          if (pending.look(rel, info, now) !== 'still') return;
          try {
            await access(abs, constants.R_OK);
          } catch (error) {
            report({ path: rel, reason: describeFsError(error) });
            return;
          }
          const stat = { size: info.size, mtimeMs: info.mtimeMs, ino: info.ino };
          // Written again while the first version was being reported: it is a change by now.
          const kind = entry.kind === 'add' && known.has(rel) ? 'change' : entry.kind;
          known.set(rel, stat);
          if (!closed) init.onEvent({ kind, path: rel, at: clock.nowMs(), ...stat });
        }),
      );
    } finally {
      polling = false;
      schedule();
    }
  };

  const reloadIgnoreFile = async (rel: string): Promise<void> => {
    const dir = rel === IGNORE_FILE ? '' : rel.slice(0, -(IGNORE_FILE.length + 1));
    if (!(await loadIgnoreFile(rules, root, dir))) report({ path: rel, reason: 'ignore file cannot be read' });
    if (closed) return;
    // Folders the old rules hid were never watched: re-reading the folder starts watching them.
    fsw.add(absOf(dir));
    init.onIgnoreFileChanged?.(dir);
  };

  /** A file seen written (or found in a new folder): held until it stays still, see `poll`. */
  const onWrite = async (rel: string, info: Stats): Promise<void> => {
    // The identity it was last reported or stored with is only needed for a file not pending yet.
    const last = pending.has(rel) ? undefined : (known.get(rel) ?? (await init.lookup?.(rel)));
    if (closed) return;
    if (pending.written(rel, info, clock.nowMs(), last)) schedule();
  };

  const onGone = async (rel: string, evenIfUnknown: boolean): Promise<void> => {
    pending.drop(rel);
    const stat = known.get(rel) ?? (await init.lookup?.(rel));
    if (closed) return;
    known.delete(rel);
    // Every other vanished name is reported, even one this session never saw written: a file the
    // scan found may be in the batch being built, and must not outlive its deletion.
    if (!evenIfUnknown && stat === undefined) return;
    init.onEvent({ kind: 'unlink', path: rel, at: clock.nowMs(), ...stat });
  };

  /** What a folder event named `rel` stands for, told by one lstat. */
  const look = async (rel: string): Promise<void> => {
    const wasDir = dirs.has(rel);
    let info: Stats | undefined;
    try {
      info = await lstat(absOf(rel));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') {
        report({ path: rel, reason: describeFsError(error) });
        return;
      }
    }
    if (closed) return;
    if (isIgnoreFile(rel) && !info?.isDirectory()) void reloadIgnoreFile(rel);
    if (info === undefined) {
      if (!wasDir && !dirs.has(rel)) await onGone(rel, true);
    } else if (info.isSymbolicLink()) await onGone(rel, false);
    else if (info.isDirectory()) pending.drop(rel);
    else if (!info.isFile()) {
      pending.drop(rel);
      report({ path: rel, reason: 'not a regular file' });
    } else await onWrite(rel, info);
  };

  // One lstat at a time per name; events arriving meanwhile ask for one more look after it.
  const looking = new Map<string, boolean>();
  const inspect = (rel: string): void => {
    if (closed || ignoredFile(rel)) return;
    if (looking.has(rel)) {
      looking.set(rel, true);
      return;
    }
    looking.set(rel, false);
    void look(rel).finally(() => {
      const again = looking.get(rel) === true;
      looking.delete(rel);
      if (again) inspect(rel);
    });
  };

  /**
   * The content of a folder that just appeared (created, moved in, or put in a file's place). chokidar
   * reads a new folder before it watches it, so what is written in between would be missed: the
   * folder is read again `stabilityMs` later (files already pending are not disturbed). A sub-folder
   * chokidar has not reported (created in that gap) is watched and reported here.
   */
  const sweep = async (rel: string): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await readdir(absOf(rel), { withFileTypes: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') report({ path: rel, reason: describeFsError(error) });
      return;
    }
    if (closed) return;
    for (const entry of entries) {
      const child = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (!entry.isDirectory()) inspect(child);
      else if (!dirs.has(child) && !rules.isIgnored(child, true)) {
        fsw.add(absOf(child));
        folderAppeared(child);
      }
    }
  };
  const sweepNewFolder = (rel: string): void => {
    void sweep(rel);
    const again = setTimeout(
      () => {
        if (!closed && dirs.has(rel)) void sweep(rel);
      },
      Math.max(pollMs, stabilityMs),
    );
    again.unref();
  };

  function folderAppeared(rel: string): void {
    dirs.add(rel);
    const seen = known.get(rel);
    if (seen !== undefined || !init.lookup) {
      reportFolder(rel, seen);
      return;
    }
    init.lookup(rel).then(
      (stored) => {
        if (!closed) reportFolder(rel, stored);
      },
      (error: unknown) => init.onError?.(error instanceof Error ? error : new Error(String(error))),
    );
  }

  /** Reports a folder that appeared; `replaced`: the file that was in its place. */
  function reportFolder(rel: string, replaced: FileStat | undefined): void {
    // A folder in a file's place: the file goes first, so the coalescer sees the swap in order.
    if (replaced !== undefined) {
      pending.drop(rel);
      known.delete(rel);
      init.onEvent({ kind: 'unlink', path: rel, at: clock.nowMs(), ...replaced });
    }
    init.onEvent({ kind: 'addDir', path: rel, at: clock.nowMs() });
    if (replaced !== undefined) init.onFolderAppeared?.(rel);
    sweepNewFolder(rel);
  }

  fsw.on('addDir', (abs) => {
    const rel = relOf(abs);
    if (rel === undefined || rel === '' || rules.isIgnored(rel, true) || closed) return;
    folderAppeared(rel);
  });
  fsw.on('unlinkDir', (abs) => {
    const rel = relOf(abs);
    if (rel === undefined) return;
    if (rel === '') {
      init.onRootGone?.();
      return;
    }
    for (const dir of dirs) if (dir === rel || dir.startsWith(`${rel}/`)) dirs.delete(dir);
    pending.dropUnder(rel);
    for (const dir of rules.ignoreFileDirs()) if (dir === rel || dir.startsWith(`${rel}/`)) rules.setIgnoreFile(dir, undefined);
    if (rules.isIgnored(rel, true)) return;
    init.onEvent({ kind: 'unlinkDir', path: rel, at: clock.nowMs() });
  });
  // chokidar reports nothing when the watched folder itself goes away; its raw fs.watch events on
  // the root do arrive, so a (debounced) stat of the root on each of them tells.
  let rootCheck: NodeJS.Timeout | undefined;
  const checkRoot = (): void => {
    if (rootCheck || closed) return;
    rootCheck = setTimeout(() => {
      rootCheck = undefined;
      lstat(root).then(
        (info) => {
          if (!info.isDirectory() && !closed) init.onRootGone?.();
        },
        () => {
          if (!closed) init.onRootGone?.();
        },
      );
    }, pollMs);
    rootCheck.unref();
  };
  fsw.on('raw', (_event, name, details) => {
    const watchedPath = (details as { watchedPath?: string }).watchedPath;
    if (watchedPath === undefined || closed) return;
    if (watchedPath === root) checkRoot();
    const dir = relOf(watchedPath);
    if (dir === undefined) return;
    // Without a name (some platforms, on overflow) only reading the folder tells what changed.
    if (typeof name !== 'string' || name === '') {
      void sweep(dir);
      return;
    }
    const rel = relOf(path.join(watchedPath, name));
    if (rel !== undefined && rel !== '') inspect(rel);
  });
  fsw.on('error', (error) => {
    const err = error instanceof Error ? error : new Error(String(error));
    const code = (err as NodeJS.ErrnoException).code;
    const errPath = (err as NodeJS.ErrnoException).path;
    const rel = errPath === undefined ? undefined : relOf(errPath);
    if ((code === 'EACCES' || code === 'EPERM') && rel !== undefined) report({ path: rel, reason: describeFsError(err) });
    else init.onError?.(err);
  });

  const ready = new Promise<void>((resolve) => fsw.once('ready', () => resolve()));
  fsw.add(root);
  await ready;
  for (const watched of Object.keys(fsw.getWatched())) {
    const rel = relOf(watched);
    if (rel !== undefined) dirs.add(rel);
  }

  return {
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      if (rootCheck) clearTimeout(rootCheck);
      timer = undefined;
      pending.clear();
      await fsw.close();
    },
    get pendingWrites() {
      return pending.size;
    },
    usingPolling: fsw.options.usePolling,
  };
}
