/**
 * The service process as the shell sees it: the one shape the supervisor (which starts, watches and
 * restarts the service) hands to the tray, the notifications and the window. The supervisor owns the
 * transitions; the shell only reads them.
 *
 *   starting ──▶ running ──▶ crashed ──▶ restarting ──▶ running …
 *                   └──────────────────────────────────▶ stopped (quit)
 */
export type ServiceState = 'starting' | 'running' | 'restarting' | 'crashed' | 'stopped';

export interface ServiceStatus {
  readonly state: ServiceState;
  /** Why, in a sentence, for crashed/restarting (e.g. "exited with code 1; restarting in 4 s"). */
  readonly detail?: string;
}

export interface ServiceStatusSource {
  current(): ServiceStatus;
  /** Calls `listener` on every later change (not with the current status); answers a function that stops it. */
  onChange(listener: (status: ServiceStatus) => void): () => void;
}

/** A status source that is set by hand: the in-process service today, and the fakes of the tests. */
export interface ServiceStatusCell extends ServiceStatusSource {
  set(status: ServiceStatus): void;
}

export function serviceStatusCell(initial: ServiceStatus = { state: 'starting' }): ServiceStatusCell {
  let status = initial;
  const listeners = new Set<(status: ServiceStatus) => void>();
  return {
    current: () => status,
    onChange(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    set(next) {
      if (next.state === status.state && next.detail === status.detail) return;
      status = next;
      for (const listener of [...listeners]) listener(next);
    },
  };
}
