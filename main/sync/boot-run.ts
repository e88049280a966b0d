import type { SyncFolderRow } from '../store/repositories/sync.js';
import type { BootEffect, BootEvent } from './boot-sequence.js';
import type { Change, RawEvent } from './coalescer.js';
import type { FirstSync } from './first-sync.js';
import { watchFolder, type FolderWatchDeps } from './folder-watch.js';
import type { FolderWork } from './folder-work.js';
import type { GuardedStep } from './reconcile-guard.js';
import { recoverJournal } from './reconciler.js';
import type { RunnerRecovery } from './runner-recovery.js';
import { takeFirstBatch } from './scan-events.js';
import { checkFolderRoot, scanFolder, type ScanResult } from './scanner.js';
import type { SyncWatcher } from './watcher.js';

export interface BootRunDeps extends FolderWatchDeps {
  firstSync: FirstSync;
  guard: GuardedStep;
  work: Pick<FolderWork, 'rescan' | 'runBatch'>;
  recovery: Pick<RunnerRecovery, 'pauseForRoot' | 'afterFailure'>;
  /** Stops the live parts of the boot before (watcher, timers, a batch in flight, queued changes). */
  halt(): Promise<void>;
}

/**
 * One boot of a folder runner: boot-sequence.ts decides each step from the last one's outcome; this
 * performs them. Its fields carry this boot's data from a step to the next.
 */
export class BootRun {
  /** The generation this boot runs in (known once the boot before is halted). */
  private gen: number;
  private row: SyncFolderRow | undefined;
  private starting: Promise<SyncWatcher> | undefined;
  private started: SyncWatcher | undefined;
  /** What the watcher sees while the first scan runs, queued after the scan's events. */
  private readonly buffered: RawEvent[] = [];
  private scan: ScanResult | undefined;
  private firstBatch: readonly Change[] = [];

  constructor(private readonly deps: BootRunDeps) {
    this.gen = deps.boot.generation;
  }

  async run(): Promise<void> {
    try {
      await this.advance({ type: 'boot-asked' });
    } catch (error) {
      await this.deps.recovery.afterFailure(error, this.gen);
    }
  }

  private async advance(event: BootEvent): Promise<void> {
    for (const effect of this.deps.boot.advance(event)) await this.perform(effect);
  }

  private async perform(effect: BootEffect): Promise<void> {
    const { deps, gen } = this;
    switch (effect.type) {
      case 'halt':
        await deps.halt();
        this.gen = deps.boot.generation;
        return this.advance({ type: 'halted' });
      case 'show-scanning':
        deps.status.note({ type: 'moved', state: 'scanning', error: '' });
        return;
      case 'check-root':
        return this.checkRoot();
      case 'pause':
        return deps.recovery.pauseForRoot(effect.reason);
      case 'recover-journal': {
        const outcome = await deps.guard((components) => recoverJournal(components, deps.ctx.folderId));
        return this.advance({ type: 'journal-recovered', gen, outcome });
      }
      case 'log-journal-discarded':
        deps.ctx.logger.warn('sync journal discarded, rescanning', { folderId: deps.ctx.folderId });
        return;
      case 'start-watcher-and-scan':
        return this.startWatcherAndScan();
      case 'queue-scan':
        return this.queueScan();
      case 'run-first-batch':
        return deps.work.runBatch(this.firstBatch, gen);
      case 'settle-first':
        deps.status.note({ type: 'settled' });
        deps.firstSync.settle();
        return;
      case 'await-watcher':
        this.started = await this.starting;
        return this.advance({ type: 'watcher-ready', gen });
      case 'adopt-watcher':
        deps.live.adopt(this.started);
        return;
      case 'confirming-rescan':
        await deps.work.rescan('', gen);
        return this.advance({ type: 'rescanned', gen });
      case 'show-watching':
        return this.showWatching();
    }
  }

  private showWatching(): void {
    const { status } = this.deps;
    status.note({ type: 'watching' });
    // Settled before the watcher was up: the folder read 'scanning' until now.
    if (status.state === 'scanning') status.note({ type: 'moved', state: 'idle' });
  }

  private async checkRoot(): Promise<void> {
    this.row = await this.deps.ctx.readRow();
    const check = await checkFolderRoot(this.deps.ctx.folderPath, this.row.deviceId);
    return this.advance(check.ok ? { type: 'root-checked', ok: true } : { type: 'root-checked', ok: false, reason: check.reason });
  }

  private async startWatcherAndScan(): Promise<void> {
    const { ctx, boot, live, status } = this.deps;
    const gen = this.gen;
    live.reloadRules((this.row ?? (await ctx.readRow())).ignorePatterns);
    status.note({ type: 'rescanning-all' });
    // The watcher's first walk of the tree costs about as much as the scan and the first batch, so
    // they run at once: what the watcher sees during the scan goes in after the scan's events (the
    // order things happened on disk), and what changed before it was ready is found by one more
    // scan once it is.
    this.starting = watchFolder(this.deps, gen, this.buffered);
    // A watcher its boot no longer wants (halted or stopped meanwhile) is closed once it is up.
    live.watcherStarted(this.starting, () => !boot.current(gen) || boot.stopped);
    const entries = new Map((await ctx.store.sync.listSyncEntries(ctx.folderId)).map((e) => [e.pathKey, e]));
    this.scan = await scanFolder({ root: ctx.folderPath, rules: live.rules, entries, caseInsensitive: ctx.caseInsensitive, signal: live.signal });
    return this.advance({ type: 'scanned', gen });
  }

  private async queueScan(): Promise<void> {
    const { ctx, live, status } = this.deps;
    // Read first: from here on synchronous up to the report, so no watcher event can slip between the
    // scan's and the buffered ones.
    const rootless = (await ctx.readRow()).rootCid === '';
    if (this.scan) status.noteUnreadable(this.scan.unreadable);
    const batch = takeFirstBatch(live.coalescer, this.scan?.events ?? [], this.buffered.splice(0), ctx.clock.nowMs());
    this.firstBatch = batch ?? [];
    return this.advance({ type: 'scan-queued', batchWaiting: batch !== undefined, rootless });
  }
}
