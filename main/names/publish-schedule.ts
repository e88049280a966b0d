/**
 * What the network publisher (network-publisher.ts) has to put to the routing endpoints and when, as plain
 * state with no timers and no I/O: each public name's next put, its failures in a row, and which names are
 * being put right now. The publisher performs the puts and arms its one timer from {@link earliestDue}.
 */

/** How a put of a name's current record ended. */
export type PutOutcome = 'done' | 'failed' | 'gone';

export interface PublishTiming {
  /** A record accepted everywhere is put again this much later. */
  refreshMs: number;
  /** The first retry after a failed put; doubled each time up to `retryMaxMs`. */
  retryFirstMs: number;
  retryMaxMs: number;
  /** A name's records are put at most this often. */
  minPutIntervalMs: number;
  /** Names put at once. */
  concurrentPuts: number;
}

/** Where one public name stands with the routing endpoints. */
interface Due {
  /** When its record is to be put (ms since the epoch). */
  atMs: number;
  /** Failed puts in a row of the current record. */
  failures: number;
  /** Moves on every new record, so a put that was under way for an older one does not count for it. */
  version: number;
}

/** A put to start now: the name and the version of its record the put is for. */
export interface PutTask {
  name: string;
  version: number;
}

/**
 * The wait before the next try after `failures` failed puts in a row (1 or more), with jitter (`random` in
 * [0, 1)): many names failing together do not all come back in the same second.
 */
export function retryBackoffMs(failures: number, timing: Pick<PublishTiming, 'retryFirstMs' | 'retryMaxMs'>, random: number): number {
  const backoff = Math.min(timing.retryMaxMs, timing.retryFirstMs * 2 ** (failures - 1));
  return backoff * (0.75 + random * 0.25);
}

export class PublishSchedule {
  private readonly due = new Map<string, Due>();
  private readonly putting = new Set<string>();
  /** When each name's last put began. */
  private readonly lastPutMs = new Map<string, number>();

  constructor(
    private readonly timing: PublishTiming,
    private readonly random: () => number = Math.random,
  ) {}

  /** A name has a new record: due now, or a min interval after its last put began. */
  markDue(name: string, nowMs: number): void {
    const known = this.due.get(name);
    const atMs = Math.max(nowMs, (this.lastPutMs.get(name) ?? -Infinity) + this.timing.minPutIntervalMs);
    this.due.set(name, { atMs, failures: 0, version: (known?.version ?? 0) + 1 });
  }

  /** Nothing more is due for the name (a put under way for it then counts for nothing). */
  withdraw(name: string): void {
    this.due.delete(name);
    this.lastPutMs.delete(name);
  }

  /** As many puts run as may: the next one to end makes room. */
  get full(): boolean {
    return this.putting.size >= this.timing.concurrentPuts;
  }

  /** When the earliest name not being put now is due; Infinity when none is. */
  earliestDue(): number {
    let earliest = Infinity;
    for (const [name, entry] of this.due) if (!this.putting.has(name) && entry.atMs < earliest) earliest = entry.atMs;
    return earliest;
  }

  /** The names due at `nowMs` that are not being put, up to the room left: now being put. */
  takeDue(nowMs: number): PutTask[] {
    const tasks: PutTask[] = [];
    for (const [name, entry] of this.due) {
      if (this.full) break;
      if (entry.atMs > nowMs || this.putting.has(name)) continue;
      this.putting.add(name);
      this.lastPutMs.set(name, nowMs);
      tasks.push({ name, version: entry.version });
    }
    return tasks;
  }

  /** A put ended: when it was for the current record, that record's next put is set by how it went. */
  putEnded(task: PutTask, outcome: PutOutcome, nowMs: number): void {
    const entry = this.due.get(task.name);
    // Withdrawn meanwhile, or a newer record came in while this one was being put: that one is due now.
    if (entry === undefined || entry.version !== task.version) return;
    if (outcome === 'gone') this.withdraw(task.name);
    else if (outcome === 'done') this.due.set(task.name, { atMs: nowMs + this.timing.refreshMs, failures: 0, version: task.version });
    else {
      const failures = entry.failures + 1;
      this.due.set(task.name, { atMs: nowMs + retryBackoffMs(failures, this.timing, this.random()), failures, version: task.version });
    }
  }

  /** The name's put is over (its outcome recorded): another may start. */
  release(name: string): void {
    this.putting.delete(name);
  }
}
