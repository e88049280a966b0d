import type { SyncFolderState } from '../store/repositories/sync.js';

/**
 * How a folder runner recovers, as a pure function: given where the runner stands and what just
 * happened, which steps it takes next. The runner performs them (halting the watcher, timers, boots,
 * root checks) and reports their outcomes back as events.
 *
 * - A folder in error boots again after `errorRetryMs` (a rescan from the stored state recomputes
 *   whatever the failed batch would have done); one paused because its root is gone checks the root
 *   every `rootRetryMs` and boots once it is back. A user's retry or rescan boots either at once.
 * - Work of an older boot (`current: false`) and anything after stop decide nothing, and an aborted
 *   batch is no failure.
 */

export interface RunnerStanding {
  state: SyncFolderState;
  stopped: boolean;
}

export type RunnerEvent =
  | { type: 'rescan-asked' }
  | { type: 'retry-asked' }
  /** The folder root failed the unmounted-drive rule (at boot, before or during a batch, or seen by the watcher). */
  | { type: 'root-gone'; reason: string }
  /** The runner halted and shows `paused`. */
  | { type: 'paused' }
  /** A boot, scan or batch failed; `current`: it belonged to the boot still running. */
  | { type: 'failed'; error: unknown; current: boolean }
  /** The runner halted and shows `error`. */
  | { type: 'errored' }
  | { type: 'retry-due'; after: 'error' | 'root-gone'; current: boolean }
  | { type: 'root-checked'; ok: boolean };

export type RunnerStep =
  | { type: 'boot' }
  | { type: 'rescan-all' }
  /** Halt, show `paused` with the reason, end a first sync still waiting; then report `paused`. */
  | { type: 'pause'; reason: string }
  /** Halt, show `error` with the message, end a first sync still waiting; then report `errored`. */
  | { type: 'fail'; error: unknown; message: string }
  /** Report `retry-due` after `ms`, for the boot running now. */
  | { type: 'retry-later'; after: 'error' | 'root-gone'; ms: number }
  /** Check the folder root; report `root-checked`. */
  | { type: 'check-root' };

export interface RetryTiming {
  rootRetryMs: number;
  errorRetryMs: number;
}

const isAbort = (error: unknown): boolean => error instanceof Error && error.name === 'AbortError';
const halted = (state: SyncFolderState): boolean => state === 'error' || state === 'paused';

export function nextSteps(standing: RunnerStanding, event: RunnerEvent, timing: RetryTiming): RunnerStep[] {
  switch (event.type) {
    case 'rescan-asked':
      // In error or paused by the root rule, nothing watches: boot again (it scans everything).
      if (standing.stopped) return [];
      return [halted(standing.state) ? { type: 'boot' } : { type: 'rescan-all' }];
    case 'retry-asked':
      return !standing.stopped && halted(standing.state) ? [{ type: 'boot' }] : [];
    case 'root-gone':
      return [{ type: 'pause', reason: event.reason }];
    case 'paused':
      return standing.stopped ? [] : [{ type: 'retry-later', after: 'root-gone', ms: timing.rootRetryMs }];
    case 'failed':
      if (standing.stopped || !event.current || isAbort(event.error)) return [];
      return [{ type: 'fail', error: event.error, message: event.error instanceof Error ? event.error.message : String(event.error) }];
    case 'errored':
      return [{ type: 'retry-later', after: 'error', ms: timing.errorRetryMs }];
    case 'retry-due':
      if (standing.stopped || !event.current) return [];
      return [event.after === 'error' ? { type: 'boot' } : { type: 'check-root' }];
    case 'root-checked':
      return [event.ok ? { type: 'boot' } : { type: 'retry-later', after: 'root-gone', ms: timing.rootRetryMs }];
  }
}
