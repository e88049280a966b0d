/**
 * The window's long-lived parts, made once in main.tsx: the API clients (whose every call reports to the
 * connectivity monitor and, on a 401, to the session), the connectivity monitor and the refresh signal.
 */
import type { ApiError } from '../api/api-error.js';
import { createApiClient, createPublicApiClient, type ApiClient, type PublicApiClient } from '../api/client.js';
import type { ApiObserver, Credentials } from '../api/core.js';
import { createConnectivityMonitor, type ConnectivityMonitor } from './connectivity.js';
import { documentVisibility, windowTimers } from './dom-environment.js';
import { createRefreshSignal, type RefreshSignal } from './refresh-signal.js';

export interface AppServices {
  /** The calls that need no key: the connectivity probe (the plan list), a sign-in link's code. */
  publicApi: PublicApiClient;
  /**
   * A client bound to these credentials: the signed-in session's (pages get it from useApi()), or a
   * pasted key the sign-in form tries.
   */
  apiFor: (credentials: Credentials) => ApiClient;
  connectivity: ConnectivityMonitor;
  refresh: RefreshSignal;
  /** The session registers here to hear of 401s: the call's credentials and the refusal. */
  onUnauthorized: (listener: (credentials: Credentials, error: ApiError) => void) => () => void;
}

export interface AppServicesInit {
  /** Origin of the service; '' (the default) is the page's own. */
  baseUrl?: string;
}

export function createAppServices(init: AppServicesInit = {}): AppServices {
  const refresh = createRefreshSignal();
  const unauthorized = new Set<(credentials: Credentials, error: ApiError) => void>();
  // The monitor probes through the keyless client: its answer is what turns the window online again.
  let connectivity: ConnectivityMonitor | null = null;
  const observer: ApiObserver = {
    unreachable: () => connectivity?.reportUnreachable(),
    answered: () => connectivity?.reportAnswered(),
    unauthorized: (credentials, error) => {
      for (const listener of [...unauthorized]) listener(credentials, error);
    },
  };
  const baseUrl = init.baseUrl ?? '';
  const publicApi = createPublicApiClient({ baseUrl, observer });
  connectivity = createConnectivityMonitor({
    probe: (signal) => publicApi.account.plans(signal),
    visibility: documentVisibility,
    timers: windowTimers,
    onRecovered: () => refresh.bump(),
  });
  return {
    publicApi,
    apiFor: (credentials) => createApiClient({ baseUrl, observer, credentials }),
    connectivity,
    refresh,
    onUnauthorized(listener) {
      unauthorized.add(listener);
      return () => unauthorized.delete(listener);
    },
  };
}
