/**
 * The window's long-lived parts, made once in main.tsx: the API client (whose every call reports to the
 * connectivity monitor and, on a 401, to the session), the connectivity monitor and the refresh signal.
 */
import type { ApiError } from '../api/api-error.js';
import { createApiClient, type ApiClient } from '../api/client.js';
import type { Credentials } from '../api/core.js';
import { createConnectivityMonitor, type ConnectivityMonitor } from './connectivity.js';
import { documentVisibility, windowTimers } from './dom-environment.js';
import { createRefreshSignal, type RefreshSignal } from './refresh-signal.js';

export interface AppServices {
  api: ApiClient;
  connectivity: ConnectivityMonitor;
  refresh: RefreshSignal;
  /** The session registers here to hear of 401s: the call's credentials and the refusal. */
  onUnauthorized: (listener: (credentials: Credentials, error: ApiError) => void) => () => void;
}

export function createAppServices(): AppServices {
  const refresh = createRefreshSignal();
  const unauthorized = new Set<(credentials: Credentials, error: ApiError) => void>();
  // The monitor probes through the same client: its answer is what turns the window online again.
  let connectivity: ConnectivityMonitor | null = null;
  const api = createApiClient({
    observer: {
      unreachable: () => connectivity?.reportUnreachable(),
      answered: () => connectivity?.reportAnswered(),
      unauthorized: (credentials, error) => {
        for (const listener of [...unauthorized]) listener(credentials, error);
      },
    },
  });
  connectivity = createConnectivityMonitor({
    probe: (signal) => api.account.plans(signal),
    visibility: documentVisibility,
    timers: windowTimers,
    onRecovered: () => refresh.bump(),
  });
  return {
    api,
    connectivity,
    refresh,
    onUnauthorized(listener) {
      unauthorized.add(listener);
      return () => unauthorized.delete(listener);
    },
  };
}
