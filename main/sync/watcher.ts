import path from 'node:path';
import { FSWatcher } from 'chokidar';
import { systemClock, type Clock } from '../base/clock.js';
import { EntryInspector } from './entry-inspector.js';
import { FolderSweeper } from './folder-sweeper.js';
import type { IgnoreRules } from './ignore-rules.js';
import { RootWatch } from './root-watch.js';
import { describeFsError } from './scanner.js';
import { StabilityPoller } from './stability-poller.js';
import { chokidarIgnores } from './watch-decisions.js';
import { WatchSession, type WatchHooks } from './watch-session.js';

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
 *
 * This file wires chokidar's events to the watch's units, which share one WatchSession
 * (watch-session.ts): the entry inspector (one lstat per event), the stability poller, the folder
 * sweeper (new folders) and the root watch; their decisions are pure, in watch-decisions.ts.
 */

export const DEFAULT_STABILITY_MS = 200;
export const DEFAULT_STABILITY_POLL_MS = 50;

export interface WatcherInit extends WatchHooks {
  /** Absolute path of the sync folder. */
  root: string;
  rules: IgnoreRules;
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

/** The units of one watch, wired to one chokidar watcher. */
interface WatchUnits {
  session: WatchSession;
  inspector: EntryInspector;
  sweeper: FolderSweeper;
  rootWatch: RootWatch;
}

export async function startWatcher(init: WatcherInit): Promise<SyncWatcher> {
  const stabilityMs = init.stabilityMs ?? DEFAULT_STABILITY_MS;
  const pollMs = init.stabilityPollMs ?? DEFAULT_STABILITY_POLL_MS;
  const session = new WatchSession(path.resolve(init.root), init.rules, init.clock ?? systemClock, init, stabilityMs);
  // chokidar watches folders only. A watch per file costs a stat and an inotify watch each, several
  // times what the first sync of a 10,000-file folder costs in all, and can exhaust the per-user
  // inotify limit; a folder's own watch already sees every file in it created, written, renamed or
  // deleted (the `raw` events), as Syncthing's watcher relies on.
  const fsw = new FSWatcher({
    persistent: true,
    ignoreInitial: true,
    followSymlinks: false,
    usePolling: false,
    atomic: false,
    alwaysStat: false,
    ignorePermissionErrors: true,
    awaitWriteFinish: false,
    ignored: (abs, stats) => chokidarIgnores(session.rules, session.relOf(abs), stats),
  });
  const watchFolder = (abs: string): void => void fsw.add(abs);
  const poller = new StabilityPoller(session, pollMs);
  const inspector = new EntryInspector(session, poller, watchFolder);
  const sweeper = new FolderSweeper(session, inspector, watchFolder, Math.max(pollMs, stabilityMs));
  const rootWatch = new RootWatch(
    session.root,
    pollMs,
    () => session.closed,
    () => init.onRootGone?.(),
  );
  listen(fsw, { session, inspector, sweeper, rootWatch });

  const ready = new Promise<void>((resolve) => fsw.once('ready', () => resolve()));
  fsw.add(session.root);
  await ready;
  for (const watched of Object.keys(fsw.getWatched())) {
    const rel = session.relOf(watched);
    if (rel !== undefined) session.dirs.add(rel);
  }

  return {
    async close() {
      session.closed = true;
      poller.close();
      rootWatch.close();
      session.pending.clear();
      await fsw.close();
    },
    get pendingWrites() {
      return session.pending.size;
    },
    usingPolling: fsw.options.usePolling,
  };
}

function listen(fsw: FSWatcher, units: WatchUnits): void {
  const { session, inspector, sweeper, rootWatch } = units;
  fsw.on('addDir', (abs) => {
    const rel = session.relOf(abs);
    if (rel === undefined || rel === '' || session.rules.isIgnored(rel, true) || session.closed) return;
    sweeper.appeared(rel);
  });
  fsw.on('unlinkDir', (abs) => {
    const rel = session.relOf(abs);
    if (rel === undefined) return;
    if (rel === '') {
      session.hooks.onRootGone?.();
      return;
    }
    session.forgetFolder(rel);
    if (session.rules.isIgnored(rel, true)) return;
    session.emit({ kind: 'unlinkDir', path: rel });
  });
  fsw.on('raw', (_event, name, details) => {
    const watchedPath = (details as { watchedPath?: string }).watchedPath;
    if (watchedPath === undefined || session.closed) return;
    if (watchedPath === session.root) rootWatch.poke();
    const dir = session.relOf(watchedPath);
    if (dir === undefined) return;
    // Without a name (some platforms, on overflow) only reading the folder tells what changed.
    if (typeof name !== 'string' || name === '') {
      void sweeper.sweep(dir);
      return;
    }
    const rel = session.relOf(path.join(watchedPath, name));
    if (rel !== undefined && rel !== '') inspector.inspect(rel);
  });
  fsw.on('error', (error) => {
    const err = error instanceof Error ? error : new Error(String(error));
    const { code, path: errPath } = err as NodeJS.ErrnoException;
    const rel = errPath === undefined ? undefined : session.relOf(errPath);
    if ((code === 'EACCES' || code === 'EPERM') && rel !== undefined) session.report({ path: rel, reason: describeFsError(err) });
    else session.hooks.onError?.(err);
  });
}
