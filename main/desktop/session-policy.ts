/**
 * What the window's session may do, set once at start: which web permissions its pages get, and which
 * of its requests go out (window-guard.ts decides; nothing reaches the service's port unless a verified
 * run of the service holds it).
 */

/** The part of Electron's Session set up here (a hand-written stand-in in tests). */
export interface PolicySession {
  setPermissionRequestHandler(
    handler: (contents: unknown, permission: string, callback: (granted: boolean) => void, details: { requestingUrl?: string; isMainFrame: boolean }) => void,
  ): void;
  setPermissionCheckHandler(handler: (contents: unknown, permission: string, requestingOrigin: string, details: { isMainFrame: boolean }) => boolean): void;
  readonly webRequest: {
    onBeforeRequest(listener: (details: { url: string }, callback: (response: { cancel: boolean }) => void) => void): void;
  };
  clearData(options: { dataTypes: Array<'cache' | 'serviceWorkers'>; origins: string[] }): Promise<void>;
}

/**
 * The one permission a page gets: writing text to the clipboard (the Copy buttons; Chromium still wants a
 * click for it), and only the renderer's own top frame on the service's origin. Everything else (camera,
 * notifications, reading the clipboard, fullscreen, storage access, …), asked for or merely checked,
 * and from anywhere else (gateway content in a frame), is denied.
 */
export function allowsPermission(permission: string, from: { origin: string; isMainFrame: boolean }, serviceOrigin: string): boolean {
  return permission === 'clipboard-sanitized-write' && from.isMainFrame && from.origin === serviceOrigin;
}

export interface SessionPolicyInit {
  serviceOrigin: string;
  /** Whether a request may go out (window-guard.ts: none to the service's origin without a verified run). */
  allowsRequest(url: string): boolean;
}

/**
 * Both permission handlers: Chromium checks a permission before it asks for it (and some features only
 * check), so a request handler alone leaves every check granted.
 */
export function applySessionPolicy(session: PolicySession, init: SessionPolicyInit): void {
  session.setPermissionRequestHandler((_contents, permission, callback, details) =>
    callback(allowsPermission(permission, { origin: originOf(details.requestingUrl), isMainFrame: details.isMainFrame }, init.serviceOrigin)),
  );
  session.setPermissionCheckHandler((_contents, permission, requestingOrigin, details) =>
    allowsPermission(permission, { origin: requestingOrigin, isMainFrame: details.isMainFrame }, init.serviceOrigin),
  );
  session.webRequest.onBeforeRequest((details, callback) => callback({ cancel: !init.allowsRequest(details.url) }));
}

/** Forgets what pages of `origin` left in the session: its HTTP cache, its service workers and their caches. */
export function forgetOrigin(session: Pick<PolicySession, 'clearData'>, origin: string): Promise<void> {
  return session.clearData({ dataTypes: ['cache', 'serviceWorkers'], origins: [origin] });
}

function originOf(url: string | undefined): string {
  if (url === undefined) return 'null';
  try {
    return new URL(url).origin;
  } catch {
    return 'null';
  }
}
