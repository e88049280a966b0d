import type { BootTracker } from './boot-tracker.js';
import type { RawEvent } from './coalescer.js';
import type { FolderWork } from './folder-work.js';
import type { LiveParts } from './live-parts.js';
import type { RunnerContext } from './runner-context.js';
import type { RunnerRecovery } from './runner-recovery.js';
import type { SerialQueue } from './serial-queue.js';
import type { StatusKeeper } from './status-keeper.js';
import { startWatcher, type SyncWatcher } from './watcher.js';

export interface FolderWatchDeps {
  ctx: RunnerContext;
  boot: BootTracker;
  live: LiveParts;
  status: StatusKeeper;
  queue: SerialQueue;
  work: Pick<FolderWork, 'rescan'>;
  recovery: Pick<RunnerRecovery, 'pauseForRoot'>;
  /** Queues a change and times the next batch. */
  push(event: RawEvent): void;
}

/**
 * Starts the watcher of the boot of generation `gen`, wired to the runner: its changes go to `buffered`
 * while the boot's first scan runs (boot-sequence.ts routes them), to the coalescer after; what it tells
 * of ignore files, new folders and a gone root becomes work on the folder's queue. Anything it reports
 * once its boot is over is dropped.
 */
export function watchFolder(deps: FolderWatchDeps, gen: number, buffered: RawEvent[]): Promise<SyncWatcher> {
  const { ctx, boot, live, status, queue, work } = deps;
  const current = (): boolean => boot.current(gen);
  const rescan = (dir: string): void => {
    if (current()) void queue.enqueue(() => work.rescan(dir, gen));
  };
  return startWatcher({
    root: ctx.folderPath,
    rules: live.rules,
    stabilityMs: ctx.timing.stabilityMs,
    stabilityPollMs: ctx.timing.stabilityPollMs,
    clock: ctx.clock,
    lookup: async (rel) => {
      if (!current()) return undefined;
      const entry = await ctx.store.sync.getSyncEntry(ctx.folderId, ctx.keyOf(rel));
      return entry?.kind === 'file' ? { size: entry.size, mtimeMs: entry.mtimeMs, ino: entry.ino } : undefined;
    },
    onEvent: (event) => {
      const route = boot.route(gen);
      if (route === 'buffer') buffered.push(event);
      else if (route === 'push') deps.push(event);
    },
    onUnreadable: (entry) => {
      if (!current()) return;
      status.noteUnreadable([entry]);
      // Shown at once: a settled folder's error now names the file.
      if (status.state === 'idle' || status.state === 'scanning') status.note({ type: 'moved', state: status.state });
    },
    onIgnoreFileChanged: rescan,
    onFolderAppeared: rescan,
    onRootGone: () => {
      if (current()) void queue.enqueue(() => confirmRootGone(deps, gen));
    },
    onError: (error) => {
      ctx.logger.warn('sync watcher error', { folderId: ctx.folderId, error });
    },
  });
}

/** The watcher saw the root go: the unmounted-drive rule, checked again on the queue, decides whether the folder pauses. */
async function confirmRootGone(deps: FolderWatchDeps, gen: number): Promise<void> {
  if (!deps.boot.current(gen)) return;
  const again = await deps.ctx.checkRoot();
  if (!again.ok && deps.boot.current(gen)) await deps.recovery.pauseForRoot(again.reason);
}
