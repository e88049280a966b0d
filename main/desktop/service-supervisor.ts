import type { Logger } from '../base/logger.js';
import type { KeychainAccess } from '../secrets/keychain-entry.js';
import { answerKeychainRequest } from '../service/keychain-host.js';
import { parseServiceMessage, type ParentToService } from '../service/messages.js';
import { DEFAULT_POLICY, initialModel, step, type ServiceStatus, type SupervisorEvent, type SupervisorPolicy } from './service-supervisor-state.js';

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

export interface SupervisorTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface SupervisorInit {
  launch(): ServiceChild;
  /** The keychain the service asks for through its parent (the desktop's main process holds it). */
  keychain?: KeychainAccess;
  policy?: SupervisorPolicy;
  nowMs?: () => number;
  timers?: SupervisorTimers;
  logger?: Logger;
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

const systemTimers: SupervisorTimers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

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
  let restartTimer: unknown = null;
  let deadlineTimer: unknown = null;
  const stopWaiters: (() => void)[] = [];

  // Events raised while an earlier one's effects run (a launch that fails at once) wait their turn, so
  // each event sees the model its predecessor left and statuses are reported in order.
  const queue: SupervisorEvent[] = [];
  let dispatching = false;
  const dispatch = (event: SupervisorEvent): void => {
    queue.push(event);
    if (dispatching) return;
    dispatching = true;
    try {
      for (let next = queue.shift(); next !== undefined; next = queue.shift()) apply(next);
    } finally {
      dispatching = false;
    }
  };

  const apply = (event: SupervisorEvent): void => {
    const next = step(model, event, nowMs(), policy);
    model = next.model;
    for (const effect of next.effects) {
      switch (effect.type) {
        case 'spawn':
          spawn(effect.child);
          break;
        case 'send-stop':
          children.get(effect.child)?.postMessage({ type: 'stop' });
          break;
        case 'kill':
          init.logger?.warn('the service did not stop in time; killing it', { deadlineMs: policy.stopDeadlineMs });
          children.get(effect.child)?.kill();
          break;
        case 'schedule-restart':
          restartTimer = timers.setTimeout(() => {
            restartTimer = null;
            dispatch({ type: 'restart-due' });
          }, effect.ms);
          break;
        case 'cancel-restart':
          if (restartTimer !== null) timers.clearTimeout(restartTimer);
          restartTimer = null;
          break;
        case 'schedule-stop-deadline':
          deadlineTimer = timers.setTimeout(() => {
            deadlineTimer = null;
            dispatch({ type: 'stop-deadline', child: effect.child });
          }, effect.ms);
          break;
        case 'cancel-stop-deadline':
          if (deadlineTimer !== null) timers.clearTimeout(deadlineTimer);
          deadlineTimer = null;
          break;
        case 'report':
          status = effect.status;
          if (status.state !== 'running') init.logger?.info(`service ${status.state}`, status.detail ? { detail: status.detail } : undefined);
          for (const listener of [...listeners]) listener(status);
          break;
      }
    }
    if (model.phase.kind === 'idle' || model.phase.kind === 'crashed') {
      for (const wake of stopWaiters.splice(0)) wake();
    }
  };

  const spawn = (id: number): void => {
    let child: ServiceChild;
    try {
      child = init.launch();
    } catch (error) {
      // Electron refused to start a process at all: report it as a failed start, not a crash loop.
      dispatch({ type: 'fatal', child: id, message: error instanceof Error ? error.message : String(error) });
      dispatch({ type: 'exit', child: id, code: null, signal: null });
      return;
    }
    children.set(id, child);
    child.onMessage((raw) => {
      const message = parseServiceMessage(raw);
      if (message === null) return init.logger?.warn('ignored a malformed message from the service process');
      if (message.type === 'ready') dispatch({ type: 'ready', child: id, url: message.url });
      else if (message.type === 'fatal') dispatch({ type: 'fatal', child: id, message: message.message });
      else {
        const answer = init.keychain
          ? answerKeychainRequest(message, init.keychain)
          : Promise.resolve<ParentToService>({ type: 'keychain-result', id: message.id, ok: false, message: 'this parent offers no keychain' });
        void answer.then((result) => {
          if (children.has(id)) child.postMessage(result);
        });
      }
    });
    child.onExit((code, signal) => {
      children.delete(id);
      dispatch({ type: 'exit', child: id, code, signal });
    });
  };

  return {
    start: () => dispatch({ type: 'start' }),
    stop() {
      const waiting = new Promise<void>((resolve) => stopWaiters.push(resolve));
      dispatch({ type: 'stop' });
      if (model.phase.kind === 'idle' || model.phase.kind === 'crashed') for (const wake of stopWaiters.splice(0)) wake();
      return waiting;
    },
    status: () => status,
    onStateChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
