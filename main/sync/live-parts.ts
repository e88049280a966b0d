import { createCoalescer, type Coalescer } from './coalescer.js';
import { createIgnoreRules, type IgnoreRules } from './ignore-rules.js';
import type { RunnerContext } from './runner-context.js';
import type { SyncWatcher } from './watcher.js';

/**
 * The live parts of a runner's boot: the signal its work runs under, its watcher, the coalescer its
 * changes wait in and the ignore rules its scans and watcher read. A halt aborts the work, closes the
 * watcher and drops the changes waiting; the next boot starts from fresh ones.
 */
export class LiveParts {
  private abort = new AbortController();
  private watcher: SyncWatcher | undefined;
  /** Settles once a watcher still starting has been adopted or, if its boot is over, closed. */
  private watcherStarting: Promise<void> = Promise.resolve();
  private changes: Coalescer;
  private ignoreRules: IgnoreRules;

  constructor(
    private readonly ctx: RunnerContext,
    ignorePatterns: readonly string[],
  ) {
    this.changes = this.newCoalescer();
    this.ignoreRules = createIgnoreRules({ patterns: ignorePatterns, caseInsensitive: ctx.caseInsensitive });
  }

  /** Aborted by a halt or stop: the work of this boot stops. */
  get signal(): AbortSignal {
    return this.abort.signal;
  }

  get coalescer(): Coalescer {
    return this.changes;
  }

  get rules(): IgnoreRules {
    return this.ignoreRules;
  }

  /** Files the adopted watcher saw changing that have not yet held still. */
  get pendingWrites(): number {
    return this.watcher?.pendingWrites ?? 0;
  }

  /** Changes seen but not yet taken: raw events waiting, writes not yet still. */
  get waiting(): number {
    return this.changes.pending + this.pendingWrites;
  }

  reloadRules(ignorePatterns: readonly string[]): void {
    this.ignoreRules = createIgnoreRules({ patterns: ignorePatterns, caseInsensitive: this.ctx.caseInsensitive });
  }

  /** A watcher is starting; once it is up, it is closed if `unwanted()` (its boot halted or the runner stopped meanwhile). */
  watcherStarted(starting: Promise<SyncWatcher>, unwanted: () => boolean): void {
    this.watcherStarting = starting.then(
      async (watcher) => {
        if (unwanted()) await watcher.close();
      },
      () => undefined,
    );
  }

  adopt(watcher: SyncWatcher | undefined): void {
    this.watcher = watcher;
    if (watcher?.usingPolling)
      this.ctx.logger.warn('sync watcher is polling (CHOKIDAR_USEPOLLING?): idle folders will cost CPU', { folderId: this.ctx.folderId });
  }

  /** Aborts the work under way; the next boot's work runs under a fresh signal. */
  abortWork(): void {
    this.abort.abort();
    this.abort = new AbortController();
  }

  /** Aborts the work under way for good (the runner stops). */
  abortForGood(): void {
    this.abort.abort();
  }

  /** Closes the adopted watcher and waits for one still starting to be adopted or closed. */
  async closeWatcher(): Promise<void> {
    const watcher = this.watcher;
    this.watcher = undefined;
    if (watcher) await watcher.close().catch((error: unknown) => this.ctx.logger.warn('sync watcher close failed', { folderId: this.ctx.folderId, error }));
    await this.watcherStarting;
  }

  /** Drops the changes waiting (a halt: the next boot's scan finds them again). */
  dropChanges(): void {
    this.changes = this.newCoalescer();
  }

  private newCoalescer(): Coalescer {
    return createCoalescer({ caseInsensitive: this.ctx.caseInsensitive, settleMs: this.ctx.timing.settleMs, maxBatchMs: this.ctx.timing.maxBatchMs });
  }
}
