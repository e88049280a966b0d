/**
 * Opening content from the window. The gateway wants the access key as headers, which a link cannot
 * carry (and a secret never goes into a URL), so a service worker registered for /ipfs/ and /ipns/
 * (renderer/public/gateway-sw.js) adds them to the navigations it sees: it asks the window's tabs for
 * their key each time, and a signed-in tab answers through <GatewayAccess>, but only for a navigation
 * it started itself (lib/gateway-grants.ts): the window announces each link it follows and each address
 * it opens, so a link or a form on another site that targets the gateway gets no key (issue 22, item 3).
 * A plain link to `/ipfs/<cid>/` opened in a new tab then shows the content, streamed, directories
 * browsable. Browsers offer service workers only on secure origins (localhost and 127.0.0.1 are):
 * elsewhere the state is `unavailable`, and links work only with a public gateway
 * (`pinfold serve --public-gateway`).
 */
import { useEffect, useSyncExternalStore } from 'react';
import type { Credentials } from '../api/core.js';
import { requestSignature } from '../api/request-signature.js';
import { createGatewayGrants, gatewayNavigationUrl } from '../lib/gateway-grants.js';
import { createStore } from '../lib/store.js';

export type GatewayAccessState = 'starting' | 'ready' | 'unavailable';

const WORKER_URL = '/gateway-sw.js';
const SCOPES = ['/ipfs/', '/ipns/'] as const;
/** The worker's questions (the same words in gateway-sw.js). */
const ASK = 'pinfold:gateway-credentials';
const REDIRECTED = 'pinfold:gateway-redirected';
/**
 * What starts a link's navigation, seen before it starts: a click (the keyboard's Enter is one), a middle
 * click, the context menu (Open link in new tab), a drag to the tab strip.
 */
const LINK_EVENTS = ['click', 'auxclick', 'contextmenu', 'dragstart'] as const;

const state = createStore<GatewayAccessState>('starting');
/** This tab's announcements and the pages signed for it; kept for the tab's life, whoever is signed in. */
const grants = createGatewayGrants();
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

/**
 * Announces that the window is about to open `path` (`/ipfs/…`, `/ipns/…`) in a tab or a frame, so the
 * gateway worker adds this window's key to that one navigation. Call it in the same task that starts the
 * navigation (before `window.open`, or while rendering the frame's commit): the worker's question arrives
 * as a later message.
 */
export function expectGatewayNavigation(path: string): void {
  const url = gatewayNavigationUrl(path, window.location.href);
  if (url !== null) grants.expect(url);
}

/** A link of the window's own pages being followed: announced before its navigation starts. */
function announceLink(event: Event): void {
  const target = event.target;
  const link = target instanceof Element ? target.closest('a[href]') : null;
  if (link instanceof HTMLAnchorElement) expectGatewayNavigation(link.href);
}

interface WorkerQuestion {
  type?: unknown;
  url?: unknown;
  /** The same address with the `ts` the worker will send: what the tab signs. */
  signUrl?: unknown;
  referrer?: unknown;
  clientId?: unknown;
  resultingClientId?: unknown;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/**
 * The address the worker asks the tab to sign: the granted one with its `ts` set, nothing else (same
 * origin, path and other parameters), or null.
 */
function signableUrl(granted: string, asked: string): URL | null {
  try {
    const url = new URL(asked);
    const grant = new URL(granted);
    // The granted address may carry a `ts` already (a signed directory's redirect keeps the query): the
    // worker's new one replaces it.
    const withoutTs = (of: URL) => JSON.stringify([...of.searchParams].filter(([name]) => name !== 'ts'));
    const same =
      url.origin === location.origin &&
      url.origin === grant.origin &&
      url.pathname === grant.pathname &&
      url.searchParams.getAll('ts').length === 1 &&
      withoutTs(url) === withoutTs(grant);
    return same ? url : null;
  } catch {
    return null;
  }
}

/** While mounted (signed in): answers the gateway worker's questions, signing the navigations it may sign. */
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
      const question = event.data as WorkerQuestion | null;
      if (!port || question === null || typeof question !== 'object') return;
      if (question.type === ASK) {
        const allowed = grants.allow({
          url: text(question.url),
          referrer: text(question.referrer),
          clientId: text(question.clientId),
          resultingClientId: text(question.resultingClientId),
        });
        const signUrl = allowed ? signableUrl(text(question.url), text(question.signUrl)) : null;
        if (signUrl === null) port.postMessage({ allowed: false });
        else {
          void requestSignature(credentials.accessSecret, 'GET', signUrl).then(
            (signature) => port.postMessage({ accessKey: credentials.accessKey, signature }),
            () => port.postMessage({ allowed: false }),
          );
        }
      } else if (question.type === REDIRECTED) {
        grants.redirected(text(question.resultingClientId));
        port.postMessage({ noted: true });
      }
    };
    container.addEventListener('message', answer);
    // Messages wait in a queue until this is called (or onmessage is set).
    container.startMessages();
    // Capture: seen before any handler of the page can stop it, and before the navigation starts.
    for (const type of LINK_EVENTS) document.addEventListener(type, announceLink, true);
    return () => {
      container.removeEventListener('message', answer);
      for (const type of LINK_EVENTS) document.removeEventListener(type, announceLink, true);
    };
  }, [credentials]);
  return null;
}

/** Whether a plain link to /ipfs/… opened from the window will carry its key. */
export function useGatewayAccess(): GatewayAccessState {
  return useSyncExternalStore(state.subscribe, state.get);
}
