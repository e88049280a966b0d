import type { Logger } from '../base/logger.js';

/** Whether this instance leads, and the attempt to (a PostgreSQL advisory lock: store/pg/leadership.ts). */
export interface GcLeadership {
  leads(): boolean;
  attempt(): Promise<boolean>;
}

export interface GcScheduleInit {
  intervalSeconds: number;
  /** Null with one instance (SQLite): it always leads. */
  leadership: GcLeadership | null;
  /** One cycle; its own errors are its to log. */
  runCycle(): Promise<unknown>;
  logger: Logger;
}

export interface GcSchedule {
  leads(): boolean;
  /** Waits `intervalSeconds` between cycles from now on (the `gc_interval_seconds` setting changed). */
  reschedule(intervalSeconds: number): void;
  close(): void;
}

/** The longest an instance waits before asking again to lead, whatever the GC interval. */
const MAX_LEADER_RETRY_SECONDS = 30;

/**
 * How often a follower asks to lead: each GC interval, or sooner when the interval is long, so a dead
 * leader's cycles are taken over within half a minute rather than within an hour.
 */
export function leaderRetrySeconds(intervalSeconds: number): number {
  return Math.min(intervalSeconds, MAX_LEADER_RETRY_SECONDS);
}

/**
 * The periodic GC: every interval, on the leader only (resolves once the first attempt to lead has answered). Every instance still runs a cycle when asked (`POST
 * /api/v0/repo/gc`): the GC lock, exclusive across instances, keeps two cycles from overlapping.
 */
export async function startGcSchedule(init: GcScheduleInit): Promise<GcSchedule> {
  const { leadership, logger } = init;
  let cycles: NodeJS.Timeout | undefined;
  let retries: NodeJS.Timeout | undefined;
  let closed = false;
  const every = (seconds: number, work: () => void): NodeJS.Timeout => {
    const timer = setInterval(work, seconds * 1000);
    timer.unref();
    return timer;
  };
  const attempt = (): Promise<unknown> =>
    leadership?.attempt().catch((error: unknown) => logger.warn('could not ask to lead garbage collection', { error })) ?? Promise.resolve();
  const schedule = (intervalSeconds: number): void => {
    clearInterval(cycles);
    clearInterval(retries);
    cycles = every(intervalSeconds, () => {
      if (leadership === null || leadership.leads()) void init.runCycle();
    });
    if (leadership !== null) {
      retries = every(leaderRetrySeconds(intervalSeconds), () => {
        if (!leadership.leads()) void attempt();
      });
    }
  };
  // The first answer before the instance serves, so the service facts say from the start whether it leads.
  if (leadership !== null) await attempt();
  schedule(init.intervalSeconds);
  return {
    leads: () => leadership === null || leadership.leads(),
    reschedule(intervalSeconds) {
      if (!closed) schedule(intervalSeconds);
    },
    close() {
      closed = true;
      clearInterval(cycles);
      clearInterval(retries);
    },
  };
}
