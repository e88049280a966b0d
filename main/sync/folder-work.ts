import type { BootTracker } from './boot-tracker.js';
import type { Change } from './coalescer.js';
import type { FirstSync } from './first-sync.js';
import type { LiveParts } from './live-parts.js';
import type { GuardedStep } from './reconcile-guard.js';
import { reconcileBatch } from './reconciler.js';
import type { RunnerContext } from './runner-context.js';
import type { RunnerRecovery } from './runner-recovery.js';
import { queueScanEvents } from './scan-events.js';
import { scanFolder } from './scanner.js';
import type { StatusKeeper } from './status-keeper.js';

export interface FolderWorkDeps {
  ctx: RunnerContext;
  boot: BootTracker;
  live: LiveParts;
  status: StatusKeeper;
  firstSync: FirstSync;
  guard: GuardedStep;
  recovery: Pick<RunnerRecovery, 'pauseForRoot' | 'afterFailure'>;
  /** Changes went into the coalescer: time the next batch. */
  arm(): void;
}

/**
 * The two kinds of work a folder does on its serial queue, each for one boot (`gen`): a batch of settled
 * changes (the unmounted-drive rule first, then the reconciler), and a scan (of the folder or a subtree)
 * whose changes settle into a batch as usual. A failure goes to the recovery policy.
 */
export class FolderWork {
  constructor(private readonly deps: FolderWorkDeps) {}

  async runBatch(changes: readonly Change[], gen: number): Promise<void> {
    const { ctx, boot, live, status, recovery } = this.deps;
    try {
      const check = await ctx.checkRoot();
      if (!boot.current(gen)) return;
      if (!check.ok) {
        await recovery.pauseForRoot(check.reason);
        return;
      }
      const signal = live.signal;
      status.note({ type: 'batch-started', changes });
      status.note({ type: 'moved', state: 'syncing' });
      const result = await this.deps.guard((components) =>
        reconcileBatch(components, ctx.folderId, changes, { signal, onProgress: (progress) => status.note({ type: 'progress', progress }) }),
      );
      status.note({ type: 'progress', progress: undefined });
      if (result === undefined || !boot.current(gen)) return;
      status.noteUnreadable(result.unreadable);
      for (const event of result.deferred) live.coalescer.push(event);
      status.note({ type: 'settled' });
      this.deps.firstSync.settle();
    } catch (error) {
      status.note({ type: 'progress', progress: undefined });
      await recovery.afterFailure(error, gen);
    }
  }

  /** Scans `subtree` ('' for the whole folder) against the stored state. */
  async rescan(subtree: string, gen: number): Promise<void> {
    const { ctx, boot, live, status } = this.deps;
    try {
      if (boot.stopped || !boot.current(gen)) return;
      const entries = new Map((await ctx.store.sync.listSyncEntriesUnder(ctx.folderId, ctx.keyOf(subtree))).map((e) => [e.pathKey, e]));
      const result = await scanFolder({ root: ctx.folderPath, rules: live.rules, entries, caseInsensitive: ctx.caseInsensitive, subtree, signal: live.signal });
      if (!boot.current(gen)) return;
      status.noteUnreadable(result.unreadable);
      queueScanEvents(live.coalescer, result.events, ctx.clock.nowMs());
      this.deps.arm();
    } catch (error) {
      await this.deps.recovery.afterFailure(error, gen);
    }
  }
}
