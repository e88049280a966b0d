import { replaySlots } from './coalesce-slots.js';
import { netChanges } from './net-changes.js';

/**
 * The event coalescer: raw watcher (or scanner) events in, one settled batch of net changes out.
 * PURE: no I/O and no timers. Time arrives inside the events (`at`) and as the `nowMs` argument of
 * `take`, so every rule is unit-tested with synthetic sequences; the watcher owns the one timer.
 *
 * Default timing, and why: the change-latency target is p50 < 1.5 s from a write to the new root
 * being served. A file first has to hold still for the watcher's stability check (200 ms, polled
 * every 50 ms), then the batch needs a quiet period so that a burst (an unzip, a `git checkout`, an
 * editor's save-by-rename) lands as one root rather than dozens. 400 ms of quiet covers the gaps
 * inside such bursts (they are single-digit ms apart) and the 100 ms chokidar needs to re-read a
 * directory, and leaves ~800 ms of the budget for import + folder operations + pin + publish.
 * `maxBatchMs` bounds the wait under a continuous stream of changes, so a busy folder still
 * publishes every few seconds instead of never.
 */

export const DEFAULT_SETTLE_MS = 400;
export const DEFAULT_MAX_BATCH_MS = 5_000;

export type RawEventKind = 'add' | 'change' | 'unlink' | 'addDir' | 'unlinkDir';
export type EntryKind = 'file' | 'dir';

/** What is known of a file's identity: for a delete, the state before it; otherwise the state now. */
export interface FileStat {
  size?: number;
  mtimeMs?: number;
  /** Inode (or file id): a rename keeps it, so same ino + size + mtime means the same content. */
  ino?: number;
  /** A content hash or CID, when the producer has one; stronger than ino for pairing moves. */
  fingerprint?: string;
}

/** Same size, mtime and inode: the same file, unchanged (how a watcher or a reader tells a file held still). */
export function sameStat(a: FileStat, b: FileStat): boolean {
  return a.size === b.size && a.mtimeMs === b.mtimeMs && a.ino === b.ino;
}

export interface RawEvent extends FileStat {
  kind: RawEventKind;
  /** Relative to the folder root, `/`-separated, without leading or trailing slash. */
  path: string;
  /** Milliseconds (any monotonic or wall clock, the same for every event of one coalescer). */
  at: number;
}

export type Change =
  | ({ type: 'add'; kind: 'file'; path: string } & FileStat)
  | { type: 'add'; kind: 'dir'; path: string }
  | ({ type: 'change'; kind: 'file'; path: string } & FileStat)
  | { type: 'remove'; kind: EntryKind; path: string }
  /**
   * `to` receives the content `from` had before the batch (no need to read the file again).
   * `removesSource`: the move also stands for the removal of `from`; false when `from` still exists
   * (a swap) or when a removed ancestor folder already covers it.
   */
  | ({ type: 'move'; kind: 'file'; from: string; to: string; removesSource: boolean } & FileStat);

export interface Batch {
  changes: Change[];
  firstEventAt: number;
  lastEventAt: number;
  eventCount: number;
}

export interface CoalesceOptions {
  /** Fold case (and Unicode normalization) of paths, for case-insensitive file systems. */
  caseInsensitive?: boolean;
}

export interface CoalescerOptions extends CoalesceOptions {
  settleMs?: number;
  maxBatchMs?: number;
}

export interface Coalescer {
  push(event: RawEvent): void;
  /** When the pending batch settles, or undefined when nothing is pending. */
  dueAt(): number | undefined;
  /**
   * The settled batch if `nowMs` has reached `dueAt()`, else undefined (and nothing changes).
   * `holdForWrites`: files are still being written (their events are on the way), so a settled batch
   * waits for them, though never past `maxBatchMs` from its first event: one burst, one root.
   */
  take(nowMs: number, holdForWrites?: boolean): Batch | undefined;
  /** The pending batch now, settled or not (shutdown, tests, a scan's result). */
  flush(): Batch | undefined;
  /** Raw events waiting. */
  readonly pending: number;
}

export function createCoalescer(options: CoalescerOptions = {}): Coalescer {
  const settleMs = options.settleMs ?? DEFAULT_SETTLE_MS;
  const maxBatchMs = options.maxBatchMs ?? DEFAULT_MAX_BATCH_MS;
  let events: RawEvent[] = [];
  let firstAt = 0;
  let lastAt = 0;

  const dueAt = (): number | undefined => (events.length === 0 ? undefined : Math.min(lastAt + settleMs, firstAt + maxBatchMs));

  const flush = (): Batch | undefined => {
    if (events.length === 0) return undefined;
    const batch: Batch = {
      changes: coalesce(events, options),
      firstEventAt: firstAt,
      lastEventAt: lastAt,
      eventCount: events.length,
    };
    events = [];
    return batch;
  };

  return {
    push(event) {
      if (events.length === 0) {
        firstAt = event.at;
        lastAt = event.at;
      } else lastAt = Math.max(lastAt, event.at);
      events.push(event);
    },
    dueAt,
    take(nowMs, holdForWrites = false) {
      const due = dueAt();
      if (due === undefined || nowMs < due) return undefined;
      if (holdForWrites && nowMs < firstAt + maxBatchMs) return undefined;
      return flush();
    },
    flush,
    get pending() {
      return events.length;
    },
  };
}

export function foldPath(path: string, caseInsensitive: boolean): string {
  return caseInsensitive ? path.normalize('NFC').toLowerCase() : path;
}

/**
 * Folds a sequence of raw events (in arrival order) into net changes: replayed into one slot per path
 * (coalesce-slots.ts), then read off as changes with moves paired (net-changes.ts).
 */
export function coalesce(events: readonly RawEvent[], options: CoalesceOptions = {}): Change[] {
  const caseInsensitive = options.caseInsensitive ?? false;
  return netChanges(replaySlots(events, (path) => foldPath(path, caseInsensitive)).values());
}
