import { CID } from 'multiformats/cid';
import type { Clock } from '../base/clock.js';
import type { Logger } from '../base/logger.js';
import type { RoutingClient } from '../network/routing.js';
import type { NamesRepository } from '../store/repositories/names.js';
import { LIBP2P_KEY_CODEC, tryParseIpnsName } from './name-parse.js';
import { PublishSchedule, type PutOutcome } from './publish-schedule.js';

/**
 * How often a public name's current record is put again although it has not changed: the Amino DHT behind
 * the public routing endpoints forgets a record 48 hours after it was put, whatever its own validity says,
 * so Kubo puts its records again every few hours. Four hours leaves room for a day of failures.
 */
export const NETWORK_REFRESH_MS = 4 * 60 * 60 * 1000;
/** The first retry after an endpoint refused or failed; doubled each time, up to {@link RETRY_MAX_MS}. */
export const RETRY_FIRST_MS = 5_000;
export const RETRY_MAX_MS = 30 * 60 * 1000;
/**
 * A name's records are put at most this often: a sync folder being edited publishes a record a second or
 * so, and only the latest of a burst matters to the network (the first goes at once).
 */
export const MIN_PUT_INTERVAL_MS = 10_000;
/** Names put at once: each put goes to every endpoint in parallel already. */
const CONCURRENT_PUTS = 4;
const PAGE = 100;

/** Cancels the timer it was returned by. */
type CancelTimer = () => void;

export interface NetworkPublisherInit {
  names: Pick<NamesRepository, 'nameByName' | 'publicNamesAfter'>;
  routing: Pick<RoutingClient, 'putRecord'>;
  clock: Clock;
  logger: Logger;
  refreshMs?: number;
  retryFirstMs?: number;
  retryMaxMs?: number;
  minPutIntervalMs?: number;
  /** Runs `run` in `ms` (tests drive a clock by hand and fire it); default an unref'd setTimeout. */
  setTimer?: (run: () => void, ms: number) => CancelTimer;
}

export interface NetworkPublisher {
  /** A name has a new record (published, republished, or made public): put it now if the name is public. */
  recordChanged(name: string): void;
  /** A name was made private or removed: nothing more is put for it (what is out there expires there). */
  withdrawn(name: string): void;
  /** Puts every public name's record now: at start, and when the routing endpoints change. */
  publishAll(): Promise<void>;
  /** Resolves once no put is under way (tests). */
  idle(): Promise<void>;
  close(): Promise<void>;
}

function defaultTimer(run: () => void, ms: number): CancelTimer {
  const timer = setTimeout(run, Math.min(Math.max(0, ms), 2 ** 31 - 1));
  timer.unref();
  return () => clearTimeout(timer);
}

/**
 * Puts the records of public names to every routing endpoint (contract section 11): each new record at once
 * (or, in a burst of publishes, the latest {@link MIN_PUT_INTERVAL_MS} after the one before), retried with exponential backoff until every endpoint accepted it, and put again every
 * {@link NETWORK_REFRESH_MS} so the network keeps it. Records close to the end of their validity are
 * re-signed by the republisher (republish.ts), whose new record comes here like any other. What is due lives
 * in memory: a start puts every public name once, which also covers what was still being retried.
 */
export function createNetworkPublisher(init: NetworkPublisherInit): NetworkPublisher {
  return new RoutingPublisher(init);
}

/** The publisher's effects: the puts under way and the one timer, over the schedule's decisions. */
class RoutingPublisher implements NetworkPublisher {
  private readonly schedule: PublishSchedule;
  private readonly setTimer: NonNullable<NetworkPublisherInit['setTimer']>;
  private cancelTimer: CancelTimer | null = null;
  private timerAtMs = Infinity;
  private closed = false;
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly init: NetworkPublisherInit) {
    this.schedule = new PublishSchedule({
      refreshMs: init.refreshMs ?? NETWORK_REFRESH_MS,
      retryFirstMs: init.retryFirstMs ?? RETRY_FIRST_MS,
      retryMaxMs: init.retryMaxMs ?? RETRY_MAX_MS,
      minPutIntervalMs: init.minPutIntervalMs ?? MIN_PUT_INTERVAL_MS,
      concurrentPuts: CONCURRENT_PUTS,
    });
    this.setTimer = init.setTimer ?? defaultTimer;
  }

  recordChanged(name: string): void {
    if (this.closed) return;
    this.schedule.markDue(name, this.init.clock.nowMs());
    this.pump();
  }

  withdrawn(name: string): void {
    this.schedule.withdraw(name);
    this.arm();
  }

  async publishAll(): Promise<void> {
    let after = 0;
    for (;;) {
      const page = await this.init.names.publicNamesAfter(after, PAGE);
      if (this.closed) return;
      for (const row of page) this.schedule.markDue(row.name, this.init.clock.nowMs());
      const last = page.at(-1);
      if (last === undefined || page.length < PAGE) break;
      after = last.id;
    }
    this.pump();
  }

  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.cancelTimer?.();
    this.cancelTimer = null;
    await Promise.all([...this.running]);
  }

  /** Starts the puts that are due (as many as may run), then arms the timer for the next. */
  private readonly pump = (): void => {
    this.cancelTimer = null;
    this.timerAtMs = Infinity;
    if (this.closed) return;
    const { clock } = this.init;
    for (const task of this.schedule.takeDue(clock.nowMs())) {
      const work = putCurrentRecord(this.init, task.name)
        .then((outcome) => this.schedule.putEnded(task, outcome, clock.nowMs()))
        .finally(() => {
          this.schedule.release(task.name);
          this.running.delete(work);
          this.pump();
        });
      this.running.add(work);
    }
    this.arm();
  };

  /** Sets the one timer for the earliest due name that is not being put right now. */
  private arm(): void {
    // At the limit, the next put to end pumps again: a timer now would only spin.
    if (this.closed || this.schedule.full) return;
    const earliest = this.schedule.earliestDue();
    if (earliest === this.timerAtMs) return;
    this.cancelTimer?.();
    this.cancelTimer = null;
    this.timerAtMs = earliest;
    if (earliest !== Infinity) this.cancelTimer = this.setTimer(this.pump, earliest - this.init.clock.nowMs());
  }
}

/** Puts a name's current record to every routing endpoint; `gone` when it is no longer public (or no longer here). */
async function putCurrentRecord(init: Pick<NetworkPublisherInit, 'names' | 'routing' | 'logger'>, name: string): Promise<PutOutcome> {
  try {
    const row = await init.names.nameByName(name);
    const parsed = tryParseIpnsName(name);
    if (row === null || !row.public || parsed === undefined) return 'gone';
    const key = CID.createV1(LIBP2P_KEY_CODEC, parsed.multihash);
    const { failed } = await init.routing.putRecord(key, new Uint8Array(row.record));
    if (failed.length === 0) return 'done';
    init.logger.warn('publishing an IPNS record to the network failed; retrying', { name, failed });
  } catch (error) {
    init.logger.warn('publishing an IPNS record to the network failed; retrying', { name, error });
  }
  return 'failed';
}
