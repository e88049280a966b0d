/**
 * A folder runner's boot sequence as a pure function: `stepBoot(state, event)` answers the next state
 * and the effects the runner performs, in order; the runner reports each effect's outcome back as an
 * event.
 *
 *  halt the last boot -> show 'scanning' -> check the root (the unmounted-drive rule) -> recover the
 *  journal -> start the watcher and scan at once -> queue the scan's events, then the watcher's
 *  -> the first batch (or settle, when nothing changed and a root exists) -> wait for the watcher and
 *  adopt it -> one confirming rescan -> watching.
 *
 * Every halt (a boot, a pause, a failure) and stop starts a new generation: an outcome of an older one
 * is stale and decides nothing. Where the sequence checks staleness is deliberate and matches the
 * runner's behaviour: a root check's outcome is always acted on (a stale pause halts nothing live),
 * recovery, scan, watcher and rescan outcomes only when current.
 */

export type BootPhase =
  /** No boot under way: not started, halted by a pause or failure, or stopped. */
  | 'off'
  | 'halting'
  | 'checking-root'
  | 'recovering'
  /** The watcher is starting while the first scan runs: what it sees waits for the scan's events. */
  | 'scanning'
  /** The first batch runs (or the folder settles), then the runner waits for its watcher. */
  | 'awaiting-watcher'
  | 'confirming'
  /** Booted: watching, batches on the timer. */
  | 'running';

export interface BootState {
  readonly generation: number;
  readonly stopped: boolean;
  readonly phase: BootPhase;
}

export const INITIAL_BOOT_STATE: BootState = { generation: 0, stopped: false, phase: 'off' };

export type JournalOutcome = 'none' | 'completed' | 'discarded';

export type BootEvent =
  /** Boot (again): the first boot, a retry, or a rescan of a halted folder. */
  | { type: 'boot-asked' }
  /** A pause or failure halts the live parts. */
  | { type: 'halt-asked' }
  /** The runner stops for good. */
  | { type: 'stop-asked' }
  /** A halt is done. */
  | { type: 'halted' }
  | { type: 'root-checked'; ok: true }
  | { type: 'root-checked'; ok: false; reason: string }
  /** `outcome` undefined: the root went away during recovery (the runner already paused). */
  | { type: 'journal-recovered'; gen: number; outcome: JournalOutcome | undefined }
  | { type: 'scanned'; gen: number }
  /** The scan's and the watcher's events are queued; `batchWaiting`: they made a batch; `rootless`: no root yet. */
  | { type: 'scan-queued'; batchWaiting: boolean; rootless: boolean }
  | { type: 'watcher-ready'; gen: number }
  | { type: 'rescanned'; gen: number };

export type BootEffect =
  /** Stop the watcher, timers, a batch in flight and queued events; then report `halted`. */
  | { type: 'halt' }
  | { type: 'show-scanning' }
  /** Read the folder's row and check its root; report `root-checked`. */
  | { type: 'check-root' }
  /** Hand the gone root to the recovery policy (it pauses). */
  | { type: 'pause'; reason: string }
  /** Finish or discard a journal left by a crash; report `journal-recovered`. */
  | { type: 'recover-journal' }
  | { type: 'log-journal-discarded' }
  /** Reload the ignore rules, start the watcher (its events buffered) and scan everything; report `scanned`. */
  | { type: 'start-watcher-and-scan' }
  /** Queue the scan's events, then those the watcher buffered, and take what settled; report `scan-queued`. */
  | { type: 'queue-scan' }
  | { type: 'run-first-batch' }
  /** Nothing to publish: the folder settles and its first sync is done. */
  | { type: 'settle-first' }
  /** Wait for the watcher to be up; report `watcher-ready`. */
  | { type: 'await-watcher' }
  | { type: 'adopt-watcher' }
  /** Scan everything again for what changed before the watcher was up; report `rescanned`. */
  | { type: 'confirming-rescan' }
  | { type: 'show-watching' };

export interface BootTransition {
  state: BootState;
  effects: BootEffect[];
}

const stay = (state: BootState): BootTransition => ({ state, effects: [] });
const to = (state: BootState, phase: BootPhase, effects: BootEffect[]): BootTransition => ({ state: { ...state, phase }, effects });

/** Whether work started in generation `gen` still belongs to the boot under way. */
export const isCurrent = (state: BootState, gen: number): boolean => gen === state.generation;

/** What becomes of an event the watcher of generation `gen` reports. */
export function routeWatcherEvent(state: BootState, gen: number): 'drop' | 'buffer' | 'push' {
  if (!isCurrent(state, gen)) return 'drop';
  return state.phase === 'scanning' ? 'buffer' : 'push';
}

export function stepBoot(state: BootState, event: BootEvent): BootTransition {
  switch (event.type) {
    case 'boot-asked':
      return to({ ...state, generation: state.generation + 1 }, 'halting', [{ type: 'halt' }]);
    case 'halt-asked':
      return to({ ...state, generation: state.generation + 1 }, 'off', [{ type: 'halt' }]);
    case 'stop-asked':
      return to({ ...state, stopped: true, generation: state.generation + 1 }, 'off', []);
    case 'halted':
      if (state.phase !== 'halting') return stay(state);
      if (state.stopped) return to(state, 'off', []);
      return to(state, 'checking-root', [{ type: 'show-scanning' }, { type: 'check-root' }]);
    case 'root-checked':
      if (!event.ok) return to(state, 'off', [{ type: 'pause', reason: event.reason }]);
      return to(state, 'recovering', [{ type: 'recover-journal' }]);
    case 'journal-recovered': {
      if (event.outcome === undefined || !isCurrent(state, event.gen)) return stay(state);
      const log: BootEffect[] = event.outcome === 'discarded' ? [{ type: 'log-journal-discarded' }] : [];
      return to(state, 'scanning', [...log, { type: 'start-watcher-and-scan' }]);
    }
    case 'scanned':
      // Still 'scanning': the watcher's events wait until the scan's are queued.
      if (!isCurrent(state, event.gen)) return stay(state);
      return to(state, 'scanning', [{ type: 'queue-scan' }]);
    case 'scan-queued': {
      const first: BootEffect = event.batchWaiting || event.rootless ? { type: 'run-first-batch' } : { type: 'settle-first' };
      return to(state, 'awaiting-watcher', [first, { type: 'await-watcher' }]);
    }
    case 'watcher-ready':
      if (!isCurrent(state, event.gen) || state.stopped) return stay(state);
      return to(state, 'confirming', [{ type: 'adopt-watcher' }, { type: 'confirming-rescan' }]);
    case 'rescanned':
      if (!isCurrent(state, event.gen)) return stay(state);
      return to(state, 'running', [{ type: 'show-watching' }]);
  }
}
