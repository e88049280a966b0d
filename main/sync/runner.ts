import { systemClock, unixSeconds, type Clock } from '../base/clock.js';
import { BadInputError } from '../base/errors.js';
import type { SyncEvents } from './sync-events.js';
import type { LockHold } from '../base/lock.js';
import type { Logger } from '../base/logger.js';
import type { Store } from '../store/repositories/index.js';
import type { SyncFolderRow } from '../store/repositories/sync.js';
import { createCoalescer, foldPath, type Change, type Coalescer, type RawEvent } from './coalescer.js';
import { folderStatusView, foldStatus, INITIAL_FOLDER_STATUS, type FolderStatus, type FolderStatusEvent, type RunnerStatus } from './folder-status.js';
import { createIgnoreRules, type IgnoreRules } from './ignore-rules.js';
import { INITIAL_BATCH_TIMER, stepBatchTimer, type BatchTimerEffect, type BatchTimerEvent, type BatchTimerState } from './batch-timer.js';
import { INITIAL_BOOT_STATE, isCurrent, routeWatcherEvent, stepBoot, type BootEffect, type BootEvent, type BootState } from './boot-sequence.js';
import { PENDING_IPNS_NAME, publishFolderRoot, type FolderPublishOutcome } from './folder-publish.js';
import { reconcileBatch, recoverJournal, type DirOperation, type ReconcilerComponents } from './reconciler.js';
import { nextSteps, type RetryTiming, type RunnerEvent, type RunnerStep } from './runner-policy.js';
import { checkFolderRoot, scanFolder, type ScanResult, type Unreadable } from './scanner.js';
import { DEFAULT_STABILITY_POLL_MS, startWatcher, type SyncWatcher } from './watcher.js';

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
 * runner-policy.ts, what the folder shows in folder-status.ts. This file performs them: the watcher,
 * timers, the serial queue, the scans and batches.
 */

export { PENDING_IPNS_NAME, type FolderPublishOutcome } from './folder-publish.js';

export const DEFAULT_ROOT_RETRY_MS = 5_000;
export const DEFAULT_ERROR_RETRY_MS = 10_000;
export { MAX_RECENT_ERRORS, type RunnerStatus, type SyncErrorNote } from './folder-status.js';

/**
 * Where one batch writes its blocks: staged together and made durable with one commit right before
 * the new root is pinned (one fsync per batch rather than one per file). Uncommitted blocks are
 * invisible, so a batch that fails or is abandoned leaves nothing behind but reclaimable pack bytes.
 */
export interface BlockSession {
  /** See ReconcilerComponents.emptyDirectory. */
  emptyDirectory?: string;
  importFile: ReconcilerComponents['importFile'];
  applyOperation: (dirCid: string, op: DirOperation, options: { signal?: AbortSignal }) => Promise<string>;
  /** Makes every block written so far durable and visible. Once; later calls do nothing. */
  commit(): Promise<void>;
  /** Drops what is staged (after a commit: nothing to drop). */
  abort(): void;
}

/** The other domains, as the composition root wires them; account-aware, folder-agnostic. */
export interface SyncDomains {
  store: Store;
  openSession(): BlockSession;
  /**
   * Pins `newRoot` for the account and unpins `oldRoot`, under the GC lock `holdGc` holds (`hold`).
   * Idempotent; NotFoundError when the new root's blocks are not all held.
   */
  movePin(accountId: number, newRoot: string, oldRoot: string | undefined, pinName: string, hold: LockHold): Promise<void>;
  /**
   * Points `ipnsName` at `root` unless a newer record of the name was seen elsewhere (the same key on another
   * machine: contract section 11): then nothing is published and it answers `conflict`. `force` publishes over
   * such a record, with a sequence above it.
   */
  publish(accountId: number, ipnsName: string, root: string, force?: boolean): Promise<FolderPublishOutcome>;
  /** Creates an IPNS name for the account pointing at `root`; returns the name. */
  createName(accountId: number, root: string): Promise<string>;
  /** Runs `fn` with garbage collection held off (the pins' GC lock, shared); `fn` gets the hold. */
  holdGc<T>(fn: (hold: LockHold) => Promise<T>): Promise<T>;
  logger: Logger;
  clock?: Clock;
  /** The live event stream: told whenever a folder's status (state, progress, root, errors) moves. */
  events?: SyncEvents;
}

export interface RunnerTiming {
  settleMs?: number;
  maxBatchMs?: number;
  stabilityMs?: number;
  stabilityPollMs?: number;
  rootRetryMs?: number;
  errorRetryMs?: number;
}

export interface FolderRunnerInit extends RunnerTiming {
  domains: SyncDomains;
  /** The folder's row as its caller read it: what never changes (path, account, case) and its first rules. */
  folder: RunnerFolder;
}

/** What a runner takes from its folder's row when it starts; the rest it reads when it needs it. */
export type RunnerFolder = Pick<SyncFolderRow, 'id' | 'path' | 'accountId' | 'caseInsensitive' | 'ignorePatterns'>;

export interface FolderRunner {
  readonly folderId: string;
  /**
   * Settles once the first full scan is pinned (and published). Rejects when the first sync fails or
   * the folder is paused before it (the caller of sync/add undoes the add).
   */
  readonly firstSync: Promise<void>;
  status(): RunnerStatus;
  /**
   * A full scan now (its changes settle into a batch as usual); a folder in error, or paused because its
   * root was gone, starts again instead (as `retry`).
   */
  rescan(): void;
  /** A folder in error, or paused because its root was gone, tries again now rather than at its next retry. */
  retry(): void;
  /**
   * Publishes the folder's current root to its name now, between batches (`sync/publish`): `force` over a newer
   * record seen elsewhere. Rejects with ConflictError when the folder has no name or no root yet.
   */
  publishNow(force: boolean): Promise<FolderPublishOutcome>;
  /** Stops watching; an in-flight batch is aborted before its journal, or finished after it. */
  stop(): Promise<void>;
}

/** Raised inside movePin when the folder root failed the unmounted-drive rule mid-batch. */
class RootGoneError extends Error {
  override readonly name = 'RootGoneError';
  constructor(readonly reason: string) {
    super(reason);
  }
}

export function startFolderRunner(init: FolderRunnerInit): FolderRunner {
  const { domains } = init;
  const { store, logger } = domains;
  const clock = domains.clock ?? systemClock;
  const rootRetryMs = init.rootRetryMs ?? DEFAULT_ROOT_RETRY_MS;
  const errorRetryMs = init.errorRetryMs ?? DEFAULT_ERROR_RETRY_MS;

  const initial = init.folder;
  const folderId = initial.id;
  const folderPath = initial.path;
  const accountId = initial.accountId;
  const ci = initial.caseInsensitive;
  const pinName = `sync ${folderPath}`.slice(0, 255);
  const keyOf = (p: string): string => foldPath(p, ci);
  const folder = async (): Promise<SyncFolderRow> => {
    const row = await store.sync.getSyncFolder(folderId);
    if (!row) throw new Error(`sync folder ${folderId} was removed`);
    return row;
  };

  // Where the boot stands, its generation (bumped on every halt and on stop: work of an older one finds
  // itself stale and does nothing) and whether the runner stopped: boot-sequence.ts decides.
  let bootState: BootState = INITIAL_BOOT_STATE;
  let abort = new AbortController();
  let watcher: SyncWatcher | undefined;
  /** Settles once a watcher still starting has been adopted or, if its boot is over, closed. */
  let watcherStarting: Promise<void> = Promise.resolve();
  let rules: IgnoreRules = createIgnoreRules({ patterns: initial.ignorePatterns, caseInsensitive: ci });
  let coalescer: Coalescer = createCoalescer({ caseInsensitive: ci, settleMs: init.settleMs, maxBatchMs: init.maxBatchMs });
  // When the next batch is taken: batch-timer.ts decides, these are its timer and the retry timer.
  let timer: BatchTimerState = INITIAL_BATCH_TIMER;
  let batchTimer: NodeJS.Timeout | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let queue: Promise<void> = Promise.resolve();
  // What the folder shows: a pure function of what happened to it (folder-status.ts); `note` applies
  // an event and performs its effects.
  let shown: FolderStatus = INITIAL_FOLDER_STATUS;
  const current = (gen: number): boolean => isCurrent(bootState, gen);
  // The event stream reads the folder's row when it sends (at most 4 times a second), so a notice is cheap.
  const changed = (): void => domains.events?.syncChanged(accountId, folderId);
  // The row's state is what the folder shows while no runner is live (the list after a restart, a paused
  // folder); the runner itself shows `shown`. So the write is not waited for (a note comes from watcher and
  // progress callbacks that cannot wait), and writes keep the order of their notes: the store runs
  // autocommit calls in the order they came.
  const persistState = (state: SyncFolderRow['state'], error: string): void => {
    store.sync
      .setSyncFolderState(folderId, state, error)
      .catch((failure: unknown) => logger.error('sync folder state not saved', { folderId, error: failure }));
  };
  const note = (event: FolderStatusEvent): void => {
    const next = foldStatus(shown, event);
    shown = next.status;
    for (const effect of next.effects) {
      if (effect.type === 'notify') changed();
      else if (!bootState.stopped) persistState(effect.state, effect.error);
    }
  };
  const noteUnreadable = (entries: readonly Unreadable[]): void => note({ type: 'unreadable', entries, at: unixSeconds(clock) });

  let settleFirst: { resolve: () => void; reject: (error: unknown) => void } | undefined;
  const firstSync = new Promise<void>((resolve, reject) => {
    settleFirst = { resolve, reject };
  });
  // Nobody may be listening (a restart): an unobserved rejection must not crash the process.
  firstSync.catch(() => undefined);
  const firstDone = (error?: unknown): void => {
    const pending = settleFirst;
    settleFirst = undefined;
    if (!pending) return;
    if (error === undefined) pending.resolve();
    else pending.reject(error);
  };

  const enqueue = (job: () => Promise<void>): Promise<void> => {
    const run = queue.then(job);
    queue = run.catch(() => undefined);
    return run;
  };

  // The reconciler's view of the domains, for this folder, one batch's block session and its GC hold.
  const componentsFor = (session: BlockSession, gcHold: LockHold): ReconcilerComponents => ({
    store,
    clock,
    emptyDirectory: session.emptyDirectory,
    importFile: session.importFile,
    applyOperation: session.applyOperation,
    async movePin(newRoot, oldRoot) {
      const check = await checkFolderRoot(folderPath, (await folder()).deviceId);
      if (!check.ok) throw new RootGoneError(check.reason);
      await session.commit();
      await domains.movePin(accountId, newRoot, oldRoot, pinName, gcHold);
    },
    async publish(ipnsName, root) {
      if (ipnsName !== PENDING_IPNS_NAME) {
        // A conflict stops the publish, not the batch: the version is still made, pinned and kept.
        if ((await domains.publish(accountId, ipnsName, root)) === 'conflict') {
          logger.warn('sync folder not published: a newer record of its name was seen elsewhere', { folderId, name: ipnsName });
          changed();
        }
        return;
      }
      const name = await domains.createName(accountId, root);
      await store.sync.setSyncFolderIpnsName(folderId, name);
      changed();
    },
  });

  /**
   * Runs a reconciler step with GC held off and a fresh block session (dropped unless the step got
   * as far as pinning); a root that vanished mid-batch drops the batch and pauses.
   */
  const guarded = async <T>(step: (components: ReconcilerComponents) => Promise<T>): Promise<T | undefined> => {
    try {
      return await domains.holdGc(async (gcHold) => {
        const session = domains.openSession();
        try {
          return await step(componentsFor(session, gcHold));
        } finally {
          session.abort();
        }
      });
    } catch (error) {
      if (!(error instanceof RootGoneError)) throw error;
      await store.sync.discardSyncJournal(folderId);
      await pauseForRoot(error.reason);
      return undefined;
    }
  };

  const clearBatchTimer = (): void => {
    if (batchTimer) clearTimeout(batchTimer);
    batchTimer = undefined;
  };
  const clearTimers = (): void => {
    clearBatchTimer();
    if (retryTimer) clearTimeout(retryTimer);
    retryTimer = undefined;
  };

  const closeWatcher = async (): Promise<void> => {
    const w = watcher;
    watcher = undefined;
    if (w) await w.close().catch((error: unknown) => logger.warn('sync watcher close failed', { folderId, error }));
    await watcherStarting;
  };

  /** Stops the live parts of the current boot (not the runner): watcher, timers, queued events. */
  const halt = async (): Promise<void> => {
    note({ type: 'halted' });
    abort.abort();
    abort = new AbortController();
    clearTimers();
    await closeWatcher();
    coalescer = createCoalescer({ caseInsensitive: ci, settleMs: init.settleMs, maxBatchMs: init.maxBatchMs });
    note({ type: 'progress', progress: undefined });
  };

  /** Applies a boot event to the boot state (boot-sequence.ts) and answers the effects it asks for. */
  const advanceBoot = (event: BootEvent): BootEffect[] => {
    const next = stepBoot(bootState, event);
    bootState = next.state;
    return next.effects;
  };

  /** Halts for a pause or a failure: a new generation, the boot under way ends. */
  const haltBoot = async (): Promise<void> => {
    for (const effect of advanceBoot({ type: 'halt-asked' })) if (effect.type === 'halt') await halt();
  };

  const retryTiming: RetryTiming = { rootRetryMs, errorRetryMs };
  /** Takes the steps the recovery policy (runner-policy.ts) decides on `event`. */
  async function take(event: RunnerEvent): Promise<void> {
    for (const step of nextSteps({ state: shown.state, stopped: bootState.stopped }, event, retryTiming)) await perform(step);
  }
  async function perform(step: RunnerStep): Promise<void> {
    switch (step.type) {
      case 'boot':
        return boot();
      case 'rescan-all':
        return rescan('', bootState.generation);
      case 'pause':
        await haltBoot();
        note({ type: 'stopped', state: 'paused', reason: step.reason, at: unixSeconds(clock) });
        logger.warn('sync folder paused', { folderId, path: folderPath, reason: step.reason });
        firstDone(new BadInputError(`path: ${step.reason}`));
        return take({ type: 'paused' });
      case 'fail':
        logger.error('sync batch failed', { folderId, path: folderPath, error: step.error });
        firstDone(step.error);
        await haltBoot();
        note({ type: 'stopped', state: 'error', reason: step.message, at: unixSeconds(clock) });
        return take({ type: 'errored' });
      case 'retry-later': {
        const gen = bootState.generation;
        retryTimer = setTimeout(() => {
          retryTimer = undefined;
          void enqueue(() => take({ type: 'retry-due', after: step.after, current: current(gen) }));
        }, step.ms);
        retryTimer.unref();
        return;
      }
      case 'check-root': {
        const check = await checkFolderRoot(folderPath, (await folder()).deviceId);
        return take({ type: 'root-checked', ok: check.ok });
      }
    }
  }
  const pauseForRoot = (reason: string): Promise<void> => take({ type: 'root-gone', reason });
  const afterFailure = (error: unknown, gen: number): Promise<void> => take({ type: 'failed', error, current: current(gen) });

  const timerTiming = { stabilityPollMs: init.stabilityPollMs ?? DEFAULT_STABILITY_POLL_MS };
  /** Applies a batch timer event (batch-timer.ts) and performs its effects; `gen`: the boot it serves. */
  const stepTimer = (event: BatchTimerEvent, gen = bootState.generation): Promise<void> => {
    const next = stepBatchTimer(timer, event, timerTiming);
    timer = next.state;
    return performTimer(next.effects, gen);
  };
  // Only `take-batch` waits: arming and firing take effect before the first await.
  async function performTimer(effects: readonly BatchTimerEffect[], gen: number): Promise<void> {
    for (const effect of effects) {
      switch (effect.type) {
        case 'set-timer':
          clearBatchTimer();
          batchTimer = setTimeout(() => {
            batchTimer = undefined;
            void stepTimer({ type: 'timer-fired' });
          }, effect.ms);
          batchTimer.unref();
          break;
        case 'clear-timer':
          clearBatchTimer();
          break;
        case 'queue-tick':
          void enqueue(() => stepTimer({ type: 'tick-started', current: !bootState.stopped && current(gen) }, gen));
          break;
        case 'take-batch':
          await takeBatch(gen);
          break;
      }
    }
  }
  async function takeBatch(gen: number): Promise<void> {
    const writing = (watcher?.pendingWrites ?? 0) > 0;
    const batch = coalescer.take(clock.nowMs(), writing);
    if (batch) await runBatch(batch.changes, gen);
    const done = { tookBatch: batch !== undefined, writing, stopped: bootState.stopped, dueAt: coalescer.dueAt(), now: clock.nowMs() };
    await stepTimer({ type: 'tick-done', current: current(gen), ...done }, gen);
  }
  const arm = (): void => {
    void stepTimer({ type: 'arm', stopped: bootState.stopped, dueAt: coalescer.dueAt(), now: clock.nowMs() });
  };

  const push = (event: RawEvent): void => {
    coalescer.push(event);
    arm();
  };

  async function runBatch(changes: readonly Change[], gen: number): Promise<void> {
    try {
      const check = await checkFolderRoot(folderPath, (await folder()).deviceId);
      if (!current(gen)) return;
      if (!check.ok) {
        await pauseForRoot(check.reason);
        return;
      }
      const signal = abort.signal;
      note({ type: 'batch-started', changes });
      note({ type: 'moved', state: 'syncing' });
      const result = await guarded((components) =>
        reconcileBatch(components, folderId, changes, { signal, onProgress: (progress) => note({ type: 'progress', progress }) }),
      );
      note({ type: 'progress', progress: undefined });
      if (result === undefined || !current(gen)) return;
      noteUnreadable(result.unreadable);
      for (const event of result.deferred) coalescer.push(event);
      note({ type: 'settled' });
      firstDone();
    } catch (error) {
      note({ type: 'progress', progress: undefined });
      await afterFailure(error, gen);
    }
  }

  async function rescan(subtree: string, gen: number): Promise<void> {
    try {
      if (bootState.stopped || !current(gen)) return;
      const entries = new Map((await store.sync.listSyncEntriesUnder(folderId, keyOf(subtree))).map((e) => [e.pathKey, e]));
      const result = await scanFolder({ root: folderPath, rules, entries, caseInsensitive: ci, subtree, signal: abort.signal });
      if (!current(gen)) return;
      noteUnreadable(result.unreadable);
      const now = clock.nowMs();
      for (const event of result.events) coalescer.push({ ...event, at: now });
      arm();
    } catch (error) {
      await afterFailure(error, gen);
    }
  }

  /**
   * One boot: boot-sequence.ts decides each step from the last one's outcome; this performs them. The
   * locals carry one boot's data from a step to the next.
   */
  async function boot(): Promise<void> {
    let gen = bootState.generation;
    let row: SyncFolderRow | undefined;
    let starting: Promise<SyncWatcher> | undefined;
    let started: SyncWatcher | undefined;
    // What the watcher sees while the first scan runs, queued after the scan's events.
    const buffered: RawEvent[] = [];
    let scan: ScanResult | undefined;
    let firstBatch: readonly Change[] = [];

    const advance = async (event: BootEvent): Promise<void> => {
      for (const effect of advanceBoot(event)) await performBoot(effect);
    };

    const startWatching = (): Promise<SyncWatcher> =>
      startWatcher({
        root: folderPath,
        rules,
        stabilityMs: init.stabilityMs,
        stabilityPollMs: init.stabilityPollMs,
        clock,
        lookup: async (rel) => {
          if (!current(gen)) return undefined;
          const entry = await store.sync.getSyncEntry(folderId, keyOf(rel));
          return entry?.kind === 'file' ? { size: entry.size, mtimeMs: entry.mtimeMs, ino: entry.ino } : undefined;
        },
        onEvent: (event) => {
          const route = routeWatcherEvent(bootState, gen);
          if (route === 'buffer') buffered.push(event);
          else if (route === 'push') push(event);
        },
        onUnreadable: (entry) => {
          if (!current(gen)) return;
          noteUnreadable([entry]);
          if (shown.state === 'idle' || shown.state === 'scanning') note({ type: 'moved', state: shown.state });
        },
        onIgnoreFileChanged: (dir) => {
          if (current(gen)) void enqueue(() => rescan(dir, gen));
        },
        onFolderAppeared: (dir) => {
          if (current(gen)) void enqueue(() => rescan(dir, gen));
        },
        onRootGone: () => {
          if (!current(gen)) return;
          void enqueue(async () => {
            if (!current(gen)) return;
            const again = await checkFolderRoot(folderPath, (await folder()).deviceId);
            if (!again.ok && current(gen)) await pauseForRoot(again.reason);
          });
        },
        onError: (error) => {
          logger.warn('sync watcher error', { folderId, error });
        },
      });

    async function performBoot(effect: BootEffect): Promise<void> {
      switch (effect.type) {
        case 'halt':
          await halt();
          gen = bootState.generation;
          return advance({ type: 'halted' });
        case 'show-scanning':
          note({ type: 'moved', state: 'scanning', error: '' });
          return;
        case 'check-root': {
          row = await folder();
          const check = await checkFolderRoot(folderPath, row.deviceId);
          return advance(check.ok ? { type: 'root-checked', ok: true } : { type: 'root-checked', ok: false, reason: check.reason });
        }
        case 'pause':
          return pauseForRoot(effect.reason);
        case 'recover-journal': {
          const outcome = await guarded((components) => recoverJournal(components, folderId));
          return advance({ type: 'journal-recovered', gen, outcome });
        }
        case 'log-journal-discarded':
          logger.warn('sync journal discarded, rescanning', { folderId });
          return;
        case 'start-watcher-and-scan': {
          rules = createIgnoreRules({ patterns: (row ?? (await folder())).ignorePatterns, caseInsensitive: ci });
          note({ type: 'rescanning-all' });
          // The watcher's first walk of the tree costs about as much as the scan and the first batch, so
          // they run at once: what the watcher sees during the scan goes in after the scan's events (the
          // order things happened on disk), and what changed before it was ready is found by one more
          // scan once it is.
          const w = startWatching();
          starting = w;
          // A watcher its boot no longer wants (halted or stopped meanwhile) is closed once it is up.
          watcherStarting = w.then(
            async (unwanted) => {
              if (!current(gen) || bootState.stopped) await unwanted.close();
            },
            () => undefined,
          );
          const entries = new Map((await store.sync.listSyncEntries(folderId)).map((e) => [e.pathKey, e]));
          scan = await scanFolder({ root: folderPath, rules, entries, caseInsensitive: ci, signal: abort.signal });
          return advance({ type: 'scanned', gen });
        }
        case 'queue-scan': {
          // Read first: from here on synchronous up to the report, so no watcher event can slip between the
          // scan's and the buffered ones.
          const rootless = (await folder()).rootCid === '';
          if (scan) {
            noteUnreadable(scan.unreadable);
            const now = clock.nowMs();
            for (const event of scan.events) coalescer.push({ ...event, at: now });
          }
          for (const event of buffered.splice(0)) coalescer.push(event);
          const batch = coalescer.flush();
          firstBatch = batch?.changes ?? [];
          return advance({ type: 'scan-queued', batchWaiting: batch !== undefined, rootless });
        }
        case 'run-first-batch':
          return runBatch(firstBatch, gen);
        case 'settle-first':
          note({ type: 'settled' });
          firstDone();
          return;
        case 'await-watcher':
          started = await starting;
          return advance({ type: 'watcher-ready', gen });
        case 'adopt-watcher':
          watcher = started;
          if (watcher?.usingPolling) logger.warn('sync watcher is polling (CHOKIDAR_USEPOLLING?): idle folders will cost CPU', { folderId });
          return;
        case 'confirming-rescan':
          await rescan('', gen);
          return advance({ type: 'rescanned', gen });
        case 'show-watching':
          note({ type: 'watching' });
          if (shown.state === 'scanning') note({ type: 'moved', state: 'idle' });
          return;
      }
    }

    try {
      await advance({ type: 'boot-asked' });
    } catch (error) {
      await afterFailure(error, gen);
    }
  }

  void enqueue(boot);

  return {
    folderId,
    firstSync,
    status: () => folderStatusView(shown, coalescer.pending + (watcher?.pendingWrites ?? 0)),
    rescan() {
      if (!bootState.stopped) void enqueue(() => take({ type: 'rescan-asked' }));
    },
    retry() {
      if (!bootState.stopped) void enqueue(() => take({ type: 'retry-asked' }));
    },
    async publishNow(force) {
      let outcome: FolderPublishOutcome = 'conflict';
      // On the folder's queue: never between a batch's publish and its commit, which would publish the old root.
      await enqueue(async () => {
        outcome = await publishFolderRoot(domains, folderId, force);
      });
      changed();
      return outcome;
    },
    async stop() {
      if (bootState.stopped) return;
      advanceBoot({ type: 'stop-asked' });
      firstDone(new BadInputError('path: sync stopped before the first scan was pinned'));
      abort.abort();
      clearTimers();
      await queue;
      await closeWatcher();
    },
  };
}
