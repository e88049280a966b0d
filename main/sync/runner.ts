import { BadInputError } from '../base/errors.js';
import { BatchScheduler } from './batch-scheduler.js';
import { BootRun } from './boot-run.js';
import { BootTracker } from './boot-tracker.js';
import type { RawEvent } from './coalescer.js';
import { FirstSync } from './first-sync.js';
import { publishFolderRoot, type FolderPublishOutcome } from './folder-publish.js';
import { FolderWork } from './folder-work.js';
import { LiveParts } from './live-parts.js';
import { reconcileGuard } from './reconcile-guard.js';
import { runnerContext, type RunnerContext } from './runner-context.js';
import { RunnerRecovery } from './runner-recovery.js';
import type { FolderRunner, FolderRunnerInit } from './runner-types.js';
import { SerialQueue } from './serial-queue.js';
import { StatusKeeper } from './status-keeper.js';
import { DEFAULT_STABILITY_POLL_MS } from './watcher.js';

/**
 * One sync folder at work: the loop that ties the watcher, the coalescer and the reconciler together.
 *
 *  boot:  checkFolderRoot (the unmounted-drive rule) -> recoverJournal -> startWatcher -> scanFolder
 *         -> the first batch at once (scan events first, then what the watcher saw during the scan)
 *         -> once the watcher is ready, one more scan for what changed before it was; the folder
 *         reads 'scanning' until then, 'idle' after.
 *  loop:  a timer at the coalescer's dueAt(); each settled batch: checkFolderRoot again, then
 *         reconcileBatch; `deferred` files go back into the coalescer; a changed `.pinfoldignore`
 *         rescans its subtree.
 *
 * All work of a folder (scans, batches, recovery) runs on one serial queue, so the reconciler sees one
 * batch at a time and a scan never reads entries a batch is rewriting. Every reconciler call runs
 * inside `holdGc`, so GC cannot collect blocks imported by the batch before the new root is pinned.
 *
 * The unmounted-drive rule is checked before a batch, and again right before the new root is pinned
 * (inside `movePin`): a root that vanished while the batch was being built abandons the batch (its
 * journal is dropped) instead of publishing an emptied tree. A paused-by-rule folder checks its root
 * every `rootRetryMs` and starts again by itself when the folder is back on the same device.
 *
 * The decisions are pure and unit-tested apart: the boot sequence in boot-sequence.ts, when a batch is
 * taken in batch-timer.ts, how the runner recovers (pause, error, retries, a user's rescan or retry) in
 * runner-policy.ts, what the folder shows in folder-status.ts. Units with one job each perform them:
 * boot-run.ts (one boot) and folder-watch.ts (its watcher), batch-scheduler.ts (the batch timer),
 * runner-recovery.ts (the recovery steps and the retry timer), folder-work.ts (batches and scans),
 * reconcile-guard.ts (the GC hold and block session around the reconciler), status-keeper.ts (what the
 * folder shows), over the state they share: boot-tracker.ts (the boot's generation), live-parts.ts (the
 * boot's signal, watcher, coalescer and rules), serial-queue.ts, first-sync.ts. This file wires them.
 */

export { PENDING_IPNS_NAME, type FolderPublishOutcome } from './folder-publish.js';
export { DEFAULT_ERROR_RETRY_MS, DEFAULT_ROOT_RETRY_MS } from './runner-context.js';
export { MAX_RECENT_ERRORS, type RunnerStatus, type SyncErrorNote } from './folder-status.js';
export type { BlockSession, FolderRunner, FolderRunnerInit, RunnerFolder, RunnerTiming, SyncDomains } from './runner-types.js';

/** A runner's units, wired: what its handle (the FolderRunner) reaches. */
interface RunnerParts {
  ctx: RunnerContext;
  boot: BootTracker;
  queue: SerialQueue;
  firstSync: FirstSync;
  status: StatusKeeper;
  live: LiveParts;
  recovery: RunnerRecovery;
  /** Boots (again): run on the queue. */
  bootAgain: () => Promise<void>;
  clearTimers: () => void;
}

export function startFolderRunner(init: FolderRunnerInit): FolderRunner {
  const parts = assembleRunner(init);
  void parts.queue.enqueue(parts.bootAgain);
  return runnerHandle(parts);
}

function assembleRunner(init: FolderRunnerInit): RunnerParts {
  const ctx = runnerContext(init);
  const boot = new BootTracker();
  const queue = new SerialQueue();
  const firstSync = new FirstSync();
  const status = new StatusKeeper(ctx, () => boot.stopped);
  const live = new LiveParts(ctx, init.folder.ignorePatterns);
  // The units call each other back (a batch's failure reaches the recovery, which boots again): the
  // closures below are called only once all of them exist.
  const recovery: RunnerRecovery = new RunnerRecovery({ ctx, boot, queue, status, firstSync, haltBoot, bootAgain, rescanAll: (gen) => work.rescan('', gen) });
  const guard = reconcileGuard(ctx, { changed: () => status.changed(), pauseForRoot: (reason) => recovery.pauseForRoot(reason) });
  const work: FolderWork = new FolderWork({ ctx, boot, live, status, firstSync, guard, recovery, arm: () => scheduler.arm() });
  const scheduler = new BatchScheduler({
    clock: ctx.clock,
    stabilityPollMs: ctx.timing.stabilityPollMs ?? DEFAULT_STABILITY_POLL_MS,
    boot,
    queue,
    dueAt: () => live.coalescer.dueAt(),
    takeSettled: () => {
      const writing = live.pendingWrites > 0;
      return { changes: live.coalescer.take(ctx.clock.nowMs(), writing)?.changes, writing };
    },
    runBatch: (changes, gen) => work.runBatch(changes, gen),
  });
  const clearTimers = (): void => {
    scheduler.clear();
    recovery.clearRetry();
  };
  const push = (event: RawEvent): void => {
    live.coalescer.push(event);
    scheduler.arm();
  };
  /** Stops the live parts of the current boot (not the runner): watcher, timers, queued events. */
  async function halt(): Promise<void> {
    status.note({ type: 'halted' });
    live.abortWork();
    clearTimers();
    await live.closeWatcher();
    live.dropChanges();
    status.note({ type: 'progress', progress: undefined });
  }
  /** Halts for a pause or a failure: a new generation, the boot under way ends. */
  async function haltBoot(): Promise<void> {
    for (const effect of boot.advance({ type: 'halt-asked' })) if (effect.type === 'halt') await halt();
  }
  function bootAgain(): Promise<void> {
    return new BootRun({ ctx, boot, live, status, queue, firstSync, guard, work, recovery, halt, push }).run();
  }
  return { ctx, boot, queue, firstSync, status, live, recovery, bootAgain, clearTimers };
}

/** What the sync service holds of a runner. */
function runnerHandle(parts: RunnerParts): FolderRunner {
  const { ctx, boot, queue, status, live, recovery } = parts;
  return {
    folderId: ctx.folderId,
    firstSync: parts.firstSync.done,
    status: () => status.view(live.waiting),
    rescan() {
      if (!boot.stopped) void queue.enqueue(() => recovery.take({ type: 'rescan-asked' }));
    },
    retry() {
      if (!boot.stopped) void queue.enqueue(() => recovery.take({ type: 'retry-asked' }));
    },
    async publishNow(force) {
      let outcome: FolderPublishOutcome = 'conflict';
      // On the folder's queue: never between a batch's publish and its commit, which would publish the old root.
      await queue.enqueue(async () => {
        outcome = await publishFolderRoot(ctx.domains, ctx.folderId, force);
      });
      status.changed();
      return outcome;
    },
    async stop() {
      if (boot.stopped) return;
      boot.advance({ type: 'stop-asked' });
      parts.firstSync.settle(new BadInputError('path: sync stopped before the first scan was pinned'));
      live.abortForGood();
      parts.clearTimers();
      await queue.drained();
      await live.closeWatcher();
    },
  };
}
