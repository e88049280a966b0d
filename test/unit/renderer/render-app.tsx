/**
 * The whole window (renderer/app/app.tsx) rendered into jsdom against a scripted service on port 0, signed
 * in with a pasted key, at a page's URL: a page's component test goes through the same session, event
 * stream, request cache and shell as the window does, and sees what a user would.
 */
import { render } from '@testing-library/react';
import { StrictMode } from 'react';
import type { PinRecord } from '../../../shared/api-types.js';
import type { Credentials } from '../../../renderer/api/core.js';
import { saveSignIn } from '../../../renderer/api/credentials.js';
import { App } from '../../../renderer/app/app.js';
import { createAppServices, type AppServices } from '../../../renderer/app/services.js';
import { USAGE } from './fixtures.js';
import { dataAnswer, listAnswer, type ScriptedService } from './scripted-service.js';

export const SIGNED_IN: Credentials = { accessKey: 'key-1', accessSecret: 'c2VjcmV0LXNlY3JldA' };

export const PIN: PinRecord = {
  name: 'report.pdf',
  cid: 'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy',
  status: 'pinned',
  size: 2048,
  created_at: 1_700_000_000,
};

/** What every signed-in page asks besides its own data: the account, its partner-ness, the event stream. */
export function serveSignedInWindow(service: ScriptedService): void {
  service.route('GET /api/v0/stats', dataAnswer(USAGE));
  service.route('GET /api/v0/partner/users', listAnswer([], 0));
  service.route('GET /api/v0/plans', dataAnswer([]));
  service.serveEvents();
}

/** jsdom lacks what the theme asks of the browser: the system's colour scheme (light, here). */
function standInForMatchMedia(): void {
  if (typeof window.matchMedia === 'function') return;
  window.matchMedia = (media: string) =>
    ({
      matches: false,
      media,
      onchange: null,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      addListener: () => undefined,
      removeListener: () => undefined,
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

/**
 * jsdom has <dialog> but not its modal methods: open and close one as the browser does (the `open`
 * attribute, the `close` event). Focus kept inside and the page behind made inert are the e2e walk's.
 */
function standInForModalDialogs(): void {
  if (typeof HTMLDialogElement.prototype.showModal === 'function') return;
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.open = true;
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    this.open = false;
    this.dispatchEvent(new Event('close'));
  };
}

/** How long a test's first look at its page waits: the page's code loads lazily, as in the window, and a test file's first render transforms its modules. */
export const PAGE_LOAD = { timeout: 10_000 };

/** The window at `path`, signed in; unmount it with Testing Library's cleanup(). */
export function renderApp(service: ScriptedService, path: string): AppServices {
  standInForMatchMedia();
  standInForModalDialogs();
  sessionStorage.clear();
  saveSignIn(sessionStorage, { credentials: SIGNED_IN, kind: 'key' });
  window.history.replaceState(null, '', path);
  const services = createAppServices({ baseUrl: service.url });
  render(
    <StrictMode>
      <App services={services} signInLink={null} />
    </StrictMode>,
  );
  return services;
}

/** The requests the window made to `METHOD /path` (any query). */
export function requestsTo(service: ScriptedService, request: string): number {
  return service.seen.filter((seen) => `${seen.method} ${new URL(seen.url, 'http://x').pathname}` === request).length;
}
