import { CID } from 'multiformats/cid';
import type { Clock } from '../base/clock.js';
import type { Logger } from '../base/logger.js';
import type { RoutingClient } from '../network/routing.js';
import type { NamesRepository } from '../store/repositories/names.js';
import { LIBP2P_KEY_CODEC, tryParseIpnsName } from './name-parse.js';

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

/** Where one public name stands with the routing endpoints. */
interface Due {
  /** When its record is to be put (ms since the epoch). */
  atMs: number;
  /** Failed puts in a row of the current record. */
  failures: number;
  /** Moves on every new record, so a put that was under way for an older one does not count for it. */
  version: number;
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
  const refreshMs = init.refreshMs ?? NETWORK_REFRESH_MS;
  const retryFirstMs = init.retryFirstMs ?? RETRY_FIRST_MS;
  const retryMaxMs = init.retryMaxMs ?? RETRY_MAX_MS;
  const minPutIntervalMs = init.minPutIntervalMs ?? MIN_PUT_INTERVAL_MS;
  const setTimer = init.setTimer ?? defaultTimer;
  const { clock, logger } = init;
  const due = new Map<string, Due>();
  const putting = new Set<string>();
  /** When each name's last put began. */
  const lastPutMs = new Map<string, number>();
  let cancelTimer: CancelTimer | null = null;
  let timerAtMs = Infinity;
  let closed = false;
  const running = new Set<Promise<void>>();

  const markDue = (name: string): void => {
    const known = due.get(name);
    const atMs = Math.max(clock.nowMs(), (lastPutMs.get(name) ?? -Infinity) + minPutIntervalMs);
    due.set(name, { atMs, failures: 0, version: (known?.version ?? 0) + 1 });
  };

  /** Sets the one timer for the earliest due name that is not being put right now. */
  const arm = (): void => {
    // At the limit, the next put to end pumps again: a timer now would only spin.
    if (closed || putting.size >= CONCURRENT_PUTS) return;
    let earliest = Infinity;
    for (const [name, entry] of due) if (!putting.has(name) && entry.atMs < earliest) earliest = entry.atMs;
    if (earliest === timerAtMs) return;
    cancelTimer?.();
    cancelTimer = null;
    timerAtMs = earliest;
    if (earliest !== Infinity) cancelTimer = setTimer(pump, earliest - clock.nowMs());
  };

  function pump(): void {
    cancelTimer = null;
    timerAtMs = Infinity;
    if (closed) return;
    const now = clock.nowMs();
    for (const [name, entry] of due) {
      if (putting.size >= CONCURRENT_PUTS) break;
      if (entry.atMs > now || putting.has(name)) continue;
      putting.add(name);
      lastPutMs.set(name, now);
      const work = putOne(name, entry.version).finally(() => {
        putting.delete(name);
        running.delete(work);
        pump();
      });
      running.add(work);
    }
    arm();
  }

  async function putOne(name: string, version: number): Promise<void> {
    let outcome: 'done' | 'failed' | 'gone';
    try {
      const row = await init.names.nameByName(name);
      const parsed = tryParseIpnsName(name);
      if (row === null || !row.public || parsed === undefined) outcome = 'gone';
      else {
        const key = CID.createV1(LIBP2P_KEY_CODEC, parsed.multihash);
        const { failed } = await init.routing.putRecord(key, new Uint8Array(row.record));
        if (failed.length === 0) outcome = 'done';
        else {
          outcome = 'failed';
          logger.warn('publishing an IPNS record to the network failed; retrying', { name, failed });
        }
      }
    } catch (error) {
      outcome = 'failed';
      logger.warn('publishing an IPNS record to the network failed; retrying', { name, error });
    }
    const entry = due.get(name);
    // Withdrawn meanwhile, or a newer record came in while this one was being put: that one is due now.
    if (entry === undefined || entry.version !== version) return;
    if (outcome === 'gone') {
      due.delete(name);
      lastPutMs.delete(name);
    } else if (outcome === 'done') due.set(name, { atMs: clock.nowMs() + refreshMs, failures: 0, version });
    else {
      const failures = entry.failures + 1;
      const backoff = Math.min(retryMaxMs, retryFirstMs * 2 ** (failures - 1));
      // Jitter: many names failing together do not all come back in the same second.
      due.set(name, { atMs: clock.nowMs() + backoff * (0.75 + Math.random() * 0.25), failures, version });
    }
  }

  return {
    recordChanged(name) {
      if (closed) return;
      markDue(name);
      pump();
    },
    withdrawn(name) {
      due.delete(name);
      lastPutMs.delete(name);
      arm();
    },
    async publishAll() {
      let after = 0;
      for (;;) {
        const page = await init.names.publicNamesAfter(after, PAGE);
        if (closed) return;
        for (const row of page) markDue(row.name);
        const last = page.at(-1);
        if (last === undefined || page.length < PAGE) break;
        after = last.id;
      }
      pump();
    },
    async idle() {
      while (running.size > 0) await Promise.all([...running]);
    },
    async close() {
      closed = true;
      cancelTimer?.();
      cancelTimer = null;
      await Promise.all([...running]);
    },
  };
}
