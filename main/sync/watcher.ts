import type { Stats } from 'node:fs';
import { constants } from 'node:fs';
import { access, lstat } from 'node:fs/promises';
import path from 'node:path';
import { FSWatcher } from 'chokidar';
import { systemClock, type Clock } from '../base/clock.js';
import type { FileStat, RawEvent } from './coalescer.js';
import { IGNORE_FILE, isIgnoreFile, loadIgnoreFile, type IgnoreRules } from './ignore-rules.js';
import { describeFsError, type Unreadable } from './scanner.js';

/**
 * The one chokidar import. Watches a sync folder and emits raw events for the coalescer.
 *
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
  /** A folder appeared where a file was (chokidar does not report its content): scan `relDir`. */
  onFolderAppeared?: (relDir: string) => void;
  /** The folder itself disappeared (unmounted drive, deleted): apply the unmounted-drive rule. */
  onRootGone?: () => void;
  onError?: (error: Error) => void;
  /** The identity a file had before it was deleted (the stored state), to pair moves. */
  lookup?: (relPath: string) => FileStat | undefined;
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

interface Pending {
  kind: 'add' | 'change';
  size: number;
  mtimeMs: number;
  ino: number;
  since: number;
}

export async function startWatcher(init: WatcherInit): Promise<SyncWatcher> {
  const root = path.resolve(init.root);
  const { rules } = init;
  const clock = init.clock ?? systemClock;
  const stabilityMs = init.stabilityMs ?? DEFAULT_STABILITY_MS;
  const pollMs = init.stabilityPollMs ?? DEFAULT_STABILITY_POLL_MS;
  const pending = new Map<string, Pending>();
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

  const ignored = (abs: string, stats?: Stats): boolean => {
    const rel = relOf(abs);
    if (rel === undefined) return true;
    if (rel === '') return false;
    if (stats?.isSymbolicLink()) return true;
    // The ignore file itself is always watched, so that editing it can re-include paths.
    if (isIgnoreFile(rel) && !stats?.isDirectory()) return false;
    return rules.isIgnored(rel, stats?.isDirectory() ?? false);
  };

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
        [...pending].map(async ([rel, entry]) => {
          const abs = path.join(root, ...rel.split('/'));
          let info: Stats;
          try {
            info = await lstat(abs);
          } catch (error) {
            pending.delete(rel);
            if ((error as NodeJS.ErrnoException).code !== 'ENOENT') report({ path: rel, reason: describeFsError(error) });
            return;
          }
          if (pending.get(rel) !== entry) return;
          if (info.isSymbolicLink()) {
            pending.delete(rel);
            return;
          }
          if (!info.isFile()) {
            pending.delete(rel);
            if (info.isDirectory()) folderReplacedFile(rel, abs);
            else report({ path: rel, reason: 'not a regular file' });
            return;
          }
          if (info.size !== entry.size || info.mtimeMs !== entry.mtimeMs || info.ino !== entry.ino) {
            entry.size = info.size;
            entry.mtimeMs = info.mtimeMs;
            entry.ino = info.ino;
            entry.since = now;
            return;
          }
          if (now - entry.since < stabilityMs) return;
          pending.delete(rel);
          try {
            await access(abs, constants.R_OK);
          } catch (error) {
            report({ path: rel, reason: describeFsError(error) });
            return;
          }
          const stat = { size: info.size, mtimeMs: info.mtimeMs, ino: info.ino };
          known.set(rel, stat);
          if (!closed) init.onEvent({ kind: entry.kind, path: rel, at: clock.nowMs(), ...stat });
        }),
      );
    } finally {
      polling = false;
      schedule();
    }
  };

  // chokidar keeps tracking a name as a file when a folder takes its place (it reports a 'change' and
  // never looks inside): report the swap, watch the folder, and have the caller scan its content.
  const folderReplacedFile = (rel: string, abs: string): void => {
    if (closed || rules.isIgnored(rel, true)) return;
    const stat = known.get(rel) ?? init.lookup?.(rel) ?? {};
    known.delete(rel);
    init.onEvent({ kind: 'unlink', path: rel, at: clock.nowMs(), ...stat });
    init.onEvent({ kind: 'addDir', path: rel, at: clock.nowMs() });
    fsw.unwatch(abs);
    fsw.add(abs);
    init.onFolderAppeared?.(rel);
  };

  const reloadIgnoreFile = async (rel: string): Promise<void> => {
    const dir = rel === IGNORE_FILE ? '' : rel.slice(0, -(IGNORE_FILE.length + 1));
    if (!(await loadIgnoreFile(rules, root, dir))) report({ path: rel, reason: 'ignore file cannot be read' });
    if (closed) return;
    // Entries the old rules hid were never watched: re-reading the folder starts watching them.
    fsw.add(path.join(root, ...dir.split('/').filter(Boolean)));
    init.onIgnoreFileChanged?.(dir);
  };

  const onWrite = (kind: 'add' | 'change', abs: string, stats?: Stats): void => {
    const rel = relOf(abs);
    if (rel === undefined || rel === '') return;
    if (isIgnoreFile(rel)) void reloadIgnoreFile(rel);
    if (rules.isIgnored(rel, false)) return;
    const existing = pending.get(rel);
    const now = clock.nowMs();
    if (existing) {
      existing.since = now;
      return;
    }
    pending.set(rel, {
      kind,
      size: stats?.size ?? -1,
      mtimeMs: stats?.mtimeMs ?? -1,
      ino: stats?.ino ?? -1,
      since: now,
    });
    schedule();
  };

  fsw.on('add', (abs, stats) => onWrite('add', abs, stats));
  fsw.on('change', (abs, stats) => onWrite('change', abs, stats));
  fsw.on('unlink', (abs) => {
    const rel = relOf(abs);
    if (rel === undefined || rel === '') return;
    pending.delete(rel);
    if (isIgnoreFile(rel)) void reloadIgnoreFile(rel);
    if (rules.isIgnored(rel, false)) return;
    const stat = known.get(rel) ?? init.lookup?.(rel) ?? {};
    known.delete(rel);
    init.onEvent({ kind: 'unlink', path: rel, at: clock.nowMs(), ...stat });
  });
  fsw.on('addDir', (abs) => {
    const rel = relOf(abs);
    if (rel === undefined || rel === '' || rules.isIgnored(rel, true)) return;
    init.onEvent({ kind: 'addDir', path: rel, at: clock.nowMs() });
  });
  fsw.on('unlinkDir', (abs) => {
    const rel = relOf(abs);
    if (rel === undefined) return;
    if (rel === '') {
      init.onRootGone?.();
      return;
    }
    for (const key of pending.keys()) if (key.startsWith(`${rel}/`)) pending.delete(key);
    for (const dir of rules.ignoreFileDirs()) if (dir === rel || dir.startsWith(`${rel}/`)) rules.setIgnoreFile(dir, undefined);
    if (rules.isIgnored(rel, true)) return;
    init.onEvent({ kind: 'unlinkDir', path: rel, at: clock.nowMs() });
  });
  // chokidar reports nothing when the watched folder itself goes away; its raw fs.watch events on
  // the root do arrive, so a (debounced) stat of the root on each of them tells.
  let rootCheck: NodeJS.Timeout | undefined;
  fsw.on('raw', (_event, _path, details) => {
    if (rootCheck || closed || (details as { watchedPath?: string }).watchedPath !== root) return;
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
