/**
 * Opening content from the window. The gateway wants the access key as headers, which a link cannot
 * carry (and a secret never goes into a URL), so a service worker registered for /ipfs/ and /ipns/
 * (renderer/public/gateway-sw.js) adds them to the navigations it sees: it asks the window's tabs for
 * their key each time, and a signed-in tab answers through <GatewayAccess>. A plain link to
 * `/ipfs/<cid>/` opened in a new tab then shows the content, streamed, directories browsable.
 * Browsers offer service workers only on secure origins (localhost and 127.0.0.1 are): elsewhere the
 * state is `unavailable`, and links work only with a public gateway (`pinfold serve --public-gateway`).
 */
import { useEffect, useSyncExternalStore } from 'react';
import type { Credentials } from '../api/core.js';
import { createStore } from '../lib/store.js';

export type GatewayAccessState = 'starting' | 'ready' | 'unavailable';

const WORKER_URL = '/gateway-sw.js';
const SCOPES = ['/ipfs/', '/ipns/'] as const;
const ASK = 'pinfold:gateway-credentials';

const state = createStore<GatewayAccessState>('starting');
let registering: Promise<void> | null = null;

function activated(registration: ServiceWorkerRegistration): Promise<void> {
  if (registration.active) return Promise.resolve();
  const worker = registration.installing ?? registration.waiting;
  if (!worker) return Promise.reject(new Error('the gateway worker did not install'));
  return new Promise((resolve, reject) => {
    worker.addEventListener('statechange', () => {
      if (worker.state === 'activated') resolve();
      else if (worker.state === 'redundant') reject(new Error('the gateway worker was replaced'));
    });
  });
}

/** Registers the worker for both scopes, once per page load. */
function register(container: ServiceWorkerContainer): Promise<void> {
  registering ??= Promise.all(SCOPES.map((scope) => container.register(WORKER_URL, { scope, updateViaCache: 'none' }).then(activated))).then(
    () => state.set('ready'),
    () => state.set('unavailable'),
  );
  return registering;
}

/** While mounted (signed in): answers the gateway worker's questions with these credentials. */
export function GatewayAccess({ credentials }: { credentials: Credentials }) {
  useEffect(() => {
    const container = 'serviceWorker' in navigator ? navigator.serviceWorker : undefined;
    if (!container) {
      state.set('unavailable');
      return;
    }
    void register(container);
    const answer = (event: MessageEvent) => {
      const port = event.ports[0];
      if (!port || (event.data as { type?: unknown } | null)?.type !== ASK) return;
      port.postMessage({ accessKey: credentials.accessKey, accessSecret: credentials.accessSecret });
    };
    container.addEventListener('message', answer);
    // Messages wait in a queue until this is called (or onmessage is set).
    container.startMessages();
    return () => container.removeEventListener('message', answer);
  }, [credentials]);
  return null;
}

/** Whether a plain link to /ipfs/… opened from the window will carry its key. */
export function useGatewayAccess(): GatewayAccessState {
  return useSyncExternalStore(state.subscribe, state.get);
}
