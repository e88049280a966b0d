import { describe, expect, it } from 'vitest';
import {
  DEFAULT_POLICY,
  initialModel,
  step,
  type SupervisorEffect,
  type SupervisorEvent,
  type SupervisorModel,
  type SupervisorPolicy,
} from '../../../main/desktop/service-supervisor-state.js';

/** Runs events through the state machine on a clock the test moves; keeps every effect for assertions. */
function machine(policy: SupervisorPolicy = DEFAULT_POLICY) {
  let model: SupervisorModel = initialModel();
  let now = 1_000_000;
  return {
    send(event: SupervisorEvent): SupervisorEffect[] {
      const next = step(model, event, now, policy);
      model = next.model;
      return next.effects;
    },
    advance(ms: number) {
      now += ms;
    },
    get model() {
      return model;
    },
  };
}

const crash = (child: number): SupervisorEvent => ({ type: 'exit', child, code: 1, signal: null });

describe('service supervisor decisions', () => {
  it('start spawns the first process and reports starting; ready reports running with its URL', () => {
    const m = machine();
    expect(m.send({ type: 'start' })).toEqual([
      { type: 'spawn', child: 1 },
      { type: 'report', status: { state: 'starting' } },
    ]);
    expect(m.send({ type: 'start' })).toEqual([]);
    expect(m.send({ type: 'ready', child: 1, url: 'http://127.0.0.1:5080' })).toEqual([
      { type: 'report', status: { state: 'running', url: 'http://127.0.0.1:5080' } },
    ]);
  });

  it('a crash restarts with backoff 1, 2, 4, 8 s; the running after a crash says it recovered', () => {
    const m = machine();
    m.send({ type: 'start' });
    m.send({ type: 'ready', child: 1, url: 'http://u' });
    const waits: number[] = [];
    for (let child = 1; child <= 4; child++) {
      const effects = m.send(crash(child));
      const schedule = effects.find((effect) => effect.type === 'schedule-restart');
      waits.push(schedule?.type === 'schedule-restart' ? schedule.ms : -1);
      expect(effects).toContainEqual({
        type: 'report',
        status: { state: 'restarting', detail: `The Pinfold service exited with code 1; restarting in ${waits.at(-1)! / 1000} s.` },
      });
      m.advance(waits.at(-1)!);
      expect(m.send({ type: 'restart-due' })).toEqual([
        { type: 'spawn', child: child + 1 },
        { type: 'report', status: { state: 'starting' } },
      ]);
    }
    expect(waits).toEqual([1000, 2000, 4000, 8000]);
    expect(m.send({ type: 'ready', child: 5, url: 'http://u' })).toEqual([{ type: 'report', status: { state: 'running', url: 'http://u', recovered: true } }]);
  });

  it('the backoff is capped at 30 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 12].map((attempt) => DEFAULT_POLICY.backoffMs(attempt))).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
  });

  it('gives up after five crashes within five minutes, and says so', () => {
    const m = machine();
    m.send({ type: 'start' });
    for (let child = 1; child <= 4; child++) {
      m.send(crash(child));
      m.advance(10_000);
      m.send({ type: 'restart-due' });
    }
    const effects = m.send({ type: 'exit', child: 5, code: null, signal: 'SIGKILL' });
    expect(effects).toEqual([
      {
        type: 'report',
        status: {
          state: 'crashed',
          detail: 'The Pinfold service stopped 5 times within 5 minutes (last: it was killed by SIGKILL); it was not restarted again.',
        },
      },
    ]);
    expect(m.model.phase.kind).toBe('crashed');
    // A start by hand (the tray's "Restart service") begins afresh.
    expect(m.send({ type: 'start' })).toEqual([
      { type: 'spawn', child: 6 },
      { type: 'report', status: { state: 'starting' } },
    ]);
    expect(m.model.crashes).toEqual([]);
  });

  it('crashes spread out over more than the window never add up to giving up', () => {
    const m = machine();
    m.send({ type: 'start' });
    for (let child = 1; child <= 12; child++) {
      m.send({ type: 'ready', child, url: 'http://u' });
      m.advance(2 * 60_000);
      const effects = m.send(crash(child));
      expect(effects.some((effect) => effect.type === 'report' && effect.status.state === 'crashed')).toBe(false);
      m.advance(30_000);
      m.send({ type: 'restart-due' });
    }
    expect(m.model.crashes.length).toBeLessThan(DEFAULT_POLICY.maxCrashes);
  });

  it('a process that reports it cannot start is not restarted into the same failure', () => {
    const m = machine();
    m.send({ type: 'start' });
    expect(m.send({ type: 'fatal', child: 1, message: 'the master key in the OS keychain does not open this data folder' })).toEqual([]);
    expect(m.send({ type: 'exit', child: 1, code: 1, signal: null })).toEqual([
      {
        type: 'report',
        status: { state: 'crashed', detail: 'The Pinfold service could not start: the master key in the OS keychain does not open this data folder' },
      },
    ]);
  });

  it('a clean stop: the stop message and a deadline; the exit reports stopped and cancels the deadline', () => {
    const m = machine();
    m.send({ type: 'start' });
    m.send({ type: 'ready', child: 1, url: 'http://u' });
    expect(m.send({ type: 'stop' })).toEqual([
      { type: 'send-stop', child: 1 },
      { type: 'schedule-stop-deadline', child: 1, ms: DEFAULT_POLICY.stopDeadlineMs },
    ]);
    expect(m.send({ type: 'stop' })).toEqual([]);
    expect(m.send({ type: 'exit', child: 1, code: 0, signal: null })).toEqual([
      { type: 'cancel-stop-deadline' },
      { type: 'report', status: { state: 'stopped' } },
    ]);
    // A stopped service stays stopped: no restart was scheduled.
    expect(m.send({ type: 'restart-due' })).toEqual([]);
  });

  it('a stop that misses its deadline kills the process; an exit that is not 0 while stopping is still a stop, not a crash', () => {
    const m = machine();
    m.send({ type: 'start' });
    m.send({ type: 'stop' });
    expect(m.send({ type: 'stop-deadline', child: 1 })).toEqual([{ type: 'kill', child: 1 }]);
    expect(m.send({ type: 'exit', child: 1, code: null, signal: 'SIGKILL' })).toEqual([
      { type: 'cancel-stop-deadline' },
      { type: 'report', status: { state: 'stopped' } },
    ]);
  });

  it('a stop while a restart is pending cancels it and never spawns again', () => {
    const m = machine();
    m.send({ type: 'start' });
    m.send(crash(1));
    expect(m.send({ type: 'stop' })).toEqual([{ type: 'cancel-restart' }, { type: 'report', status: { state: 'stopped' } }]);
    expect(m.send({ type: 'restart-due' })).toEqual([]);
    expect(m.model.phase.kind).toBe('idle');
  });

  it('events of an older process are ignored', () => {
    const m = machine();
    m.send({ type: 'start' });
    m.send(crash(1));
    m.send({ type: 'restart-due' });
    expect(m.send({ type: 'ready', child: 1, url: 'http://old' })).toEqual([]);
    expect(m.send(crash(1))).toEqual([]);
    expect(m.send({ type: 'stop-deadline', child: 1 })).toEqual([]);
    expect(m.model.phase).toEqual({ kind: 'starting', child: 2 });
  });
});
