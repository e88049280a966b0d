import type { ServiceStatus } from './service-supervisor-state.js';

export type { ServiceState, ServiceStatus } from './service-supervisor-state.js';

/**
 * The service process as the shell (tray, notifications, links) sees it: the status the supervisor
 * reports, read through the desktop's service (desktop-service.ts), which says `running` only once the
 * URL and the owner key are known. The supervisor owns the transitions; the shell only reads them:
 *
 *   starting ──▶ running ──▶ restarting ──▶ starting ──▶ running (recovered) …
 *      │                        └──(too many crashes)──▶ crashed
 *      └──(cannot start)──▶ crashed                      stopped (quit)
 */
export interface ServiceStatusSource {
  current(): ServiceStatus;
  /** Calls `listener` on every later change (not with the current status); answers a function that stops it. */
  onChange(listener: (status: ServiceStatus) => void): () => void;
}
