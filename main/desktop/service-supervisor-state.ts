/**
 * The decisions of the service-process supervisor, as a pure state machine: given the model, an event
 * and the time, the next model and the effects to carry out (spawn, stop, kill, timers, a status to
 * report). No timers, processes or Electron here, so every decision is tested with a hand-moved clock.
 */

/** What the tray and notifications show of the service (they subscribe to changes). */
export type ServiceState = 'starting' | 'running' | 'restarting' | 'crashed' | 'stopped';

export interface ServiceStatus {
  state: ServiceState;
  /** A sentence for people: why it crashed, when it restarts. */
  detail?: string;
  /** The service's URL once running. */
  url?: string;
  /** True on the `running` that follows a crash (the "restarted after a crash" notification). */
  recovered?: boolean;
}

export interface SupervisorPolicy {
  /** The wait before restart number `attempt` (1 = after the first crash). */
  backoffMs(attempt: number): number;
  /** Give up after this many crashes within `crashWindowMs`. */
  maxCrashes: number;
  crashWindowMs: number;
  /** How long a clean stop may take before the process is killed. */
  stopDeadlineMs: number;
}

/** 1 s, 2 s, 4 s, … up to 30 s; five crashes within five minutes and it stays down (a crash loop helps nobody). */
export const DEFAULT_POLICY: SupervisorPolicy = {
  backoffMs: (attempt) => Math.min(30_000, 1000 * 2 ** Math.max(0, attempt - 1)),
  maxCrashes: 5,
  crashWindowMs: 5 * 60_000,
  stopDeadlineMs: 15_000,
};

type Phase =
  | { kind: 'idle' }
  | { kind: 'starting'; child: number }
  | { kind: 'running'; child: number; url: string }
  | { kind: 'waiting' }
  | { kind: 'stopping'; child: number }
  | { kind: 'crashed' };

export interface SupervisorModel {
  phase: Phase;
  /** Id of the newest child process; events of older ones are stale and ignored. */
  generation: number;
  /** When recent crashes happened (ms), for the give-up window and the backoff. */
  crashes: number[];
  /** The child said it cannot start (a wrong key, a port in use): its exit is final, not a crash to retry. */
  fatal: string | null;
}

export type SupervisorEvent =
  | { type: 'start' }
  | { type: 'stop' }
  | { type: 'ready'; child: number; url: string }
  | { type: 'fatal'; child: number; message: string }
  | { type: 'exit'; child: number; code: number | null; signal: string | null }
  | { type: 'restart-due' }
  | { type: 'stop-deadline'; child: number };

export type SupervisorEffect =
  | { type: 'spawn'; child: number }
  | { type: 'send-stop'; child: number }
  | { type: 'kill'; child: number }
  | { type: 'schedule-restart'; ms: number }
  | { type: 'cancel-restart' }
  | { type: 'schedule-stop-deadline'; child: number; ms: number }
  | { type: 'cancel-stop-deadline' }
  | { type: 'report'; status: ServiceStatus };

export const initialModel = (): SupervisorModel => ({ phase: { kind: 'idle' }, generation: 0, crashes: [], fatal: null });

export interface Step {
  model: SupervisorModel;
  effects: SupervisorEffect[];
}

function describeExit(code: number | null, signal: string | null): string {
  return signal !== null ? `was killed by ${signal}` : `exited with code ${code ?? 'unknown'}`;
}

function spawn(model: SupervisorModel, crashes: number[]): Step {
  const child = model.generation + 1;
  return {
    model: { phase: { kind: 'starting', child }, generation: child, crashes, fatal: null },
    effects: [{ type: 'spawn', child }],
  };
}

export function step(model: SupervisorModel, event: SupervisorEvent, nowMs: number, policy: SupervisorPolicy = DEFAULT_POLICY): Step {
  const { phase } = model;
  const same = (effects: SupervisorEffect[] = []): Step => ({ model, effects });
  const current = (child: number) => child === model.generation;

  switch (event.type) {
    case 'start': {
      if (phase.kind !== 'idle' && phase.kind !== 'crashed') return same();
      // A start by hand (after giving up, or the first) begins with a clean slate.
      const next = spawn(model, []);
      return { model: next.model, effects: [...next.effects, { type: 'report', status: { state: 'starting' } }] };
    }

    case 'ready': {
      if (phase.kind !== 'starting' || !current(event.child)) return same();
      const recovered = model.crashes.length > 0;
      return {
        model: { ...model, phase: { kind: 'running', child: event.child, url: event.url } },
        effects: [{ type: 'report', status: { state: 'running', url: event.url, ...(recovered ? { recovered: true } : {}) } }],
      };
    }

    case 'fatal':
      return current(event.child) && (phase.kind === 'starting' || phase.kind === 'running')
        ? { model: { ...model, fatal: event.message }, effects: [] }
        : same();

    case 'exit': {
      if (!current(event.child)) return same();
      if (phase.kind === 'stopping') {
        return {
          model: { ...model, phase: { kind: 'idle' } },
          effects: [{ type: 'cancel-stop-deadline' }, { type: 'report', status: { state: 'stopped' } }],
        };
      }
      if (phase.kind !== 'starting' && phase.kind !== 'running') return same();
      if (model.fatal !== null) {
        return {
          model: { ...model, phase: { kind: 'crashed' } },
          effects: [{ type: 'report', status: { state: 'crashed', detail: `The Pinfold service could not start: ${model.fatal}` } }],
        };
      }
      const crashes = [...model.crashes.filter((at) => nowMs - at < policy.crashWindowMs), nowMs];
      const how = describeExit(event.code, event.signal);
      if (crashes.length >= policy.maxCrashes) {
        const minutes = Math.round(policy.crashWindowMs / 60_000);
        return {
          model: { ...model, phase: { kind: 'crashed' }, crashes },
          effects: [
            {
              type: 'report',
              status: {
                state: 'crashed',
                detail: `The Pinfold service stopped ${crashes.length} times within ${minutes} minutes (last: it ${how}); it was not restarted again.`,
              },
            },
          ],
        };
      }
      const wait = policy.backoffMs(crashes.length);
      return {
        model: { ...model, phase: { kind: 'waiting' }, crashes },
        effects: [
          { type: 'schedule-restart', ms: wait },
          { type: 'report', status: { state: 'restarting', detail: `The Pinfold service ${how}; restarting in ${Math.ceil(wait / 1000)} s.` } },
        ],
      };
    }

    case 'restart-due': {
      if (phase.kind !== 'waiting') return same();
      const next = spawn(model, model.crashes);
      return { model: next.model, effects: [...next.effects, { type: 'report', status: { state: 'starting' } }] };
    }

    case 'stop': {
      if (phase.kind === 'starting' || phase.kind === 'running') {
        return {
          model: { ...model, phase: { kind: 'stopping', child: phase.child } },
          effects: [
            { type: 'send-stop', child: phase.child },
            { type: 'schedule-stop-deadline', child: phase.child, ms: policy.stopDeadlineMs },
          ],
        };
      }
      if (phase.kind === 'waiting' || phase.kind === 'crashed') {
        return {
          model: { ...model, phase: { kind: 'idle' } },
          effects: [...(phase.kind === 'waiting' ? [{ type: 'cancel-restart' } as const] : []), { type: 'report', status: { state: 'stopped' } }],
        };
      }
      return same();
    }

    case 'stop-deadline':
      return phase.kind === 'stopping' && phase.child === event.child ? same([{ type: 'kill', child: event.child }]) : same();
  }
}
