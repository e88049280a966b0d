/**
 * When a followed folder looks for a newer version, as pure functions (issue 24): given where the follow
 * runner stands and what just happened, what it does next. The runner (follow-runner.ts) performs the
 * effects (a cycle: check, fetch, apply; timers; what the folder shows) and reports their outcomes back.
 *
 * - One cycle at a time. A check asked for while one runs (a push, the user's retry) runs right after it.
 * - After a cycle, the next check in `pollMs` (default 30 s); while a source pushes (a Pinfold gateway's
 *   long-poll, record-wait.ts), in `pushCheckMs` instead: the push brings a new record at once, and the
 *   periodic check only covers the routing endpoints and the sources that do not push. When the pushing
 *   source stops answering, the next check is in `pollMs` again.
 * - A failed cycle shows `error` with why and is tried again after a backoff that doubles from
 *   `errorRetryMs` up to `maxRetryMs`; the next cycle that works clears it.
 */

export type FollowPhase = 'idle' | 'busy' | 'error' | 'stopped';

export interface FollowStanding {
  readonly phase: FollowPhase;
  /** Cycles failed in a row. */
  readonly failures: number;
  /** A check was asked for while a cycle ran. */
  readonly again: boolean;
  /** A source answers with the push marker and is being waited on. */
  readonly pushLive: boolean;
}

export const INITIAL_FOLLOW_STANDING: FollowStanding = { phase: 'busy', failures: 0, again: false, pushLive: false };

export type FollowEvent =
  /** The runner started: its first cycle runs at once (started counts as busy). */
  | { type: 'started' }
  /** The periodic timer fired. */
  | { type: 'check-due' }
  /** The user asked (retry, rescan, resume) or a source pushed a newer record. */
  | { type: 'check-asked' }
  | { type: 'cycle-done' }
  | { type: 'cycle-failed'; message: string }
  | { type: 'push-live'; live: boolean }
  | { type: 'stop-asked' };

export type FollowEffect =
  { type: 'run-cycle' } | { type: 'schedule-check'; ms: number } | { type: 'cancel-check' } | { type: 'show'; state: 'idle' | 'error'; error: string };

export interface FollowTiming {
  pollMs: number;
  pushCheckMs: number;
  errorRetryMs: number;
  maxRetryMs: number;
}

export const DEFAULT_FOLLOW_TIMING: FollowTiming = { pollMs: 30_000, pushCheckMs: 5 * 60_000, errorRetryMs: 10_000, maxRetryMs: 5 * 60_000 };

export interface FollowStep {
  standing: FollowStanding;
  effects: FollowEffect[];
}

/** The wait before the next try after `failures` failed cycles in a row (1 or more). */
export function retryDelay(failures: number, timing: Pick<FollowTiming, 'errorRetryMs' | 'maxRetryMs'>): number {
  return Math.min(timing.maxRetryMs, timing.errorRetryMs * 2 ** Math.min(30, Math.max(0, failures - 1)));
}

export function stepFollow(standing: FollowStanding, event: FollowEvent, timing: FollowTiming): FollowStep {
  const stay = (): FollowStep => ({ standing, effects: [] });
  if (standing.phase === 'stopped') return stay();
  switch (event.type) {
    case 'started':
      return { standing: { ...standing, phase: 'busy' }, effects: [{ type: 'run-cycle' }] };
    case 'check-due':
    case 'check-asked':
      if (standing.phase === 'busy') return { standing: { ...standing, again: true }, effects: [] };
      return { standing: { ...standing, phase: 'busy', again: false }, effects: [{ type: 'cancel-check' }, { type: 'run-cycle' }] };
    case 'cycle-done':
      if (standing.again) return { standing: { ...standing, phase: 'busy', again: false, failures: 0 }, effects: [{ type: 'run-cycle' }] };
      return {
        standing: { ...standing, phase: 'idle', failures: 0 },
        effects: [
          { type: 'show', state: 'idle', error: '' },
          { type: 'schedule-check', ms: standing.pushLive ? timing.pushCheckMs : timing.pollMs },
        ],
      };
    case 'cycle-failed': {
      const failures = standing.failures + 1;
      // A check asked for meanwhile waits for the backoff too: a source that fails must not be asked in a loop.
      return {
        standing: { ...standing, phase: 'error', failures, again: false },
        effects: [
          { type: 'show', state: 'error', error: event.message },
          { type: 'schedule-check', ms: retryDelay(failures, timing) },
        ],
      };
    }
    case 'push-live':
      // A pushing source that stops answering (gone, restarted) leaves the folder on the periodic check: the
      // check due in `pushCheckMs` comes in `pollMs` instead, so the folder shows the source's trouble.
      if (!event.live && standing.pushLive && standing.phase === 'idle') {
        return { standing: { ...standing, pushLive: false }, effects: [{ type: 'schedule-check', ms: timing.pollMs }] };
      }
      // A source that starts pushing (its first long-poll answers after the first cycle, which scheduled the
      // check in `pollMs`): from now on the push brings news, so the check due moves out to `pushCheckMs`.
      if (event.live && !standing.pushLive && standing.phase === 'idle') {
        return { standing: { ...standing, pushLive: true }, effects: [{ type: 'schedule-check', ms: timing.pushCheckMs }] };
      }
      return { standing: { ...standing, pushLive: event.live }, effects: [] };
    case 'stop-asked':
      return { standing: { ...standing, phase: 'stopped' }, effects: [{ type: 'cancel-check' }] };
  }
}

/** What one source's long-poll answered (network/record-push.ts), for {@link afterPushAnswer}. */
export type PushOutcome = 'record' | 'unchanged' | 'none';

export interface PushTiming {
  /** A source that does not push is asked again this much later (polling covers it meanwhile). */
  probeMs: number;
  errorRetryMs: number;
  maxRetryMs: number;
}

export const DEFAULT_PUSH_TIMING: PushTiming = { probeMs: 10 * 60_000, errorRetryMs: 5_000, maxRetryMs: 5 * 60_000 };

/**
 * After one answer of a source's long-poll: ask again at once (it pushes and answered), after a backoff (it
 * failed; `failures` counts its failures in a row, this one included), or after `probeMs` (it answered but
 * does not push: polling covers it). `live`: the source is being waited on.
 */
export function afterPushAnswer(outcome: PushOutcome, push: boolean, failures: number, timing: PushTiming): { waitMs: number; live: boolean } {
  if (push && outcome !== 'none') return { waitMs: 0, live: true };
  if (outcome === 'none') return { waitMs: retryDelay(failures, timing), live: false };
  return { waitMs: timing.probeMs, live: false };
}
