import type { Logger } from '../base/logger.js';
import type { KeychainAccess } from '../secrets/keychain-entry.js';
import type { ParentToService } from '../service/messages.js';
import { OneShotTimer, systemTimers, type SupervisorTimers } from './one-shot-timer.js';
import { SerialDispatch } from './serial-dispatch.js';
import { spawnChild } from './service-child-link.js';
import {
  DEFAULT_POLICY,
  initialModel,
  step,
  type ServiceStatus,
  type SupervisorEffect,
  type SupervisorEvent,
  type SupervisorModel,
  type SupervisorPolicy,
} from './service-supervisor-state.js';

/**
 * One service process as the supervisor sees it: Electron's UtilityProcess in the app
 * (utility-service-process.ts), a Node child process in the tests.
 */
export interface ServiceChild {
  postMessage(message: ParentToService): void;
  onMessage(listener: (message: unknown) => void): void;
  onExit(listener: (code: number | null, signal: string | null) => void): void;
  /** Ends the process at once (after the clean stop's deadline passed). */
  kill(): void;
}

export interface SupervisorInit {
  launch(): ServiceChild;
  /** The keychain the service asks for through its parent (the desktop's main process holds it). */
  keychain?: KeychainAccess;
  policy?: SupervisorPolicy;
  nowMs?: () => number;
  timers?: SupervisorTimers;
  logger?: Logger;
  /** What a service process says the app should apply of its settings (launch at login). */
  onDesktopSettings?: (settings: { launchAtLogin: boolean | null }) => void;
}

export interface ServiceSupervisor {
  /** Starts the service (again, after it was given up on). */
  start(): void;
  /** Stops it cleanly (a stop message, then a kill after the deadline); resolves once no process is left. */
  stop(): Promise<void>;
  status(): ServiceStatus;
  /** Called on every state change; returns a function that unsubscribes. */
  onStateChange(listener: (status: ServiceStatus) => void): () => void;
}

export type { SupervisorTimers };

/** The phases in which no process is left: a stop waits for one of them. */
const settled = (phase: SupervisorModel['phase']): boolean => phase.kind === 'idle' || phase.kind === 'crashed';

/**
 * Starts, watches and restarts the service process, carrying out the decisions of
 * service-supervisor-state.ts. It answers the service's keychain requests and reports each state
 * change to its listeners (the tray, notifications, the window).
 */
export function createServiceSupervisor(init: SupervisorInit): ServiceSupervisor {
  const policy = init.policy ?? DEFAULT_POLICY;
  const nowMs = init.nowMs ?? Date.now;
  const timers = init.timers ?? systemTimers;
  let model = initialModel();
  let status: ServiceStatus = { state: 'stopped' };
  const listeners = new Set<(status: ServiceStatus) => void>();
  const children = new Map<number, ServiceChild>();
  const restart = new OneShotTimer(timers);
  const deadline = new OneShotTimer(timers);
  const stopWaiters: (() => void)[] = [];
  const wakeStopWaiters = (): void => {
    if (settled(model.phase)) for (const wake of stopWaiters.splice(0)) wake();
  };

  const link = {
    keychain: init.keychain,
    logger: init.logger,
    children,
    dispatch: (event: SupervisorEvent) => events.dispatch(event),
    ...(init.onDesktopSettings ? { onDesktopSettings: init.onDesktopSettings } : {}),
  };
  const report = (next: ServiceStatus): void => {
    status = next;
    if (status.state !== 'running') init.logger?.info(`service ${status.state}`, status.detail ? { detail: status.detail } : undefined);
    for (const listener of [...listeners]) listener(status);
  };
  const perform = (effect: SupervisorEffect): void => {
    switch (effect.type) {
      case 'spawn':
        return spawnChild(effect.child, () => init.launch(), link);
      case 'send-stop':
        return children.get(effect.child)?.postMessage({ type: 'stop' });
      case 'kill':
        init.logger?.warn('the service did not stop in time; killing it', { deadlineMs: policy.stopDeadlineMs });
        return children.get(effect.child)?.kill();
      case 'schedule-restart':
        return restart.schedule(effect.ms, () => events.dispatch({ type: 'restart-due' }));
      case 'cancel-restart':
        return restart.cancel();
      case 'schedule-stop-deadline':
        return deadline.schedule(effect.ms, () => events.dispatch({ type: 'stop-deadline', child: effect.child }));
      case 'cancel-stop-deadline':
        return deadline.cancel();
      case 'report':
        return report(effect.status);
    }
  };
  const events = new SerialDispatch<SupervisorEvent>((event) => {
    const next = step(model, event, nowMs(), policy);
    model = next.model;
    for (const effect of next.effects) perform(effect);
    wakeStopWaiters();
  });

  return {
    start: () => events.dispatch({ type: 'start' }),
    stop() {
      const waiting = new Promise<void>((resolve) => stopWaiters.push(resolve));
      events.dispatch({ type: 'stop' });
      wakeStopWaiters();
      return waiting;
    },
    status: () => status,
    onStateChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
