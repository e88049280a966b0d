import { describe, expect, it } from 'vitest';
import { allowsPermission, applySessionPolicy, forgetOrigin, type PolicySession } from '../../../main/desktop/session-policy.js';

const SERVICE = 'http://127.0.0.1:5080';

type RequestHandler = Parameters<PolicySession['setPermissionRequestHandler']>[0];
type CheckHandler = Parameters<PolicySession['setPermissionCheckHandler']>[0];
type BeforeRequest = Parameters<PolicySession['webRequest']['onBeforeRequest']>[0];

/** A hand-written Session stand-in: keeps the handlers the policy sets, so the test can call them as Chromium would. */
function fakeSession() {
  const set: { request?: RequestHandler; check?: CheckHandler; beforeRequest?: BeforeRequest } = {};
  const cleared: unknown[] = [];
  const session: PolicySession = {
    setPermissionRequestHandler: (handler) => void (set.request = handler),
    setPermissionCheckHandler: (handler) => void (set.check = handler),
    webRequest: { onBeforeRequest: (listener) => void (set.beforeRequest = listener) },
    clearData: async (options) => void cleared.push(options),
  };
  const request = (permission: string, requestingUrl: string, isMainFrame = true) =>
    new Promise<boolean>((resolve) => {
      if (!set.request) throw new Error('no permission request handler');
      set.request(null, permission, resolve, { requestingUrl, isMainFrame });
    });
  const check = (permission: string, origin: string, isMainFrame = true) => {
    if (!set.check) throw new Error('no permission check handler');
    return set.check(null, permission, origin, { isMainFrame });
  };
  const send = (url: string) =>
    new Promise<{ cancel: boolean }>((resolve) => {
      if (!set.beforeRequest) throw new Error('no request filter');
      set.beforeRequest({ url }, resolve);
    });
  return { session, request, check, send, cleared };
}

const DENIED = ['notifications', 'media', 'geolocation', 'clipboard-read', 'fullscreen', 'openExternal', 'persistent-storage', 'storage-access', 'unknown'];

describe('the session policy', () => {
  it('denies every permission check, not only requests (Chromium checks before it asks, and some features only check)', () => {
    const { session, check } = fakeSession();
    applySessionPolicy(session, { serviceOrigin: SERVICE, allowsRequest: () => true });
    for (const permission of DENIED) expect(check(permission, SERVICE), permission).toBe(false);
  });

  it('denies every permission request', async () => {
    const { session, request } = fakeSession();
    applySessionPolicy(session, { serviceOrigin: SERVICE, allowsRequest: () => true });
    for (const permission of DENIED) await expect(request(permission, `${SERVICE}/settings`), permission).resolves.toBe(false);
  });

  it("grants the renderer's top frame the clipboard write of its Copy buttons, and nobody else", async () => {
    const { session, request, check } = fakeSession();
    applySessionPolicy(session, { serviceOrigin: SERVICE, allowsRequest: () => true });
    expect(check('clipboard-sanitized-write', SERVICE)).toBe(true);
    await expect(request('clipboard-sanitized-write', `${SERVICE}/keys`)).resolves.toBe(true);
    // Gateway content in a frame, another origin, another port.
    expect(check('clipboard-sanitized-write', SERVICE, false)).toBe(false);
    await expect(request('clipboard-sanitized-write', `${SERVICE}/ipfs/bafkqaaa`, false)).resolves.toBe(false);
    expect(check('clipboard-sanitized-write', 'https://evil.example')).toBe(false);
    expect(check('clipboard-sanitized-write', 'http://127.0.0.1:5081')).toBe(false);
    await expect(request('clipboard-sanitized-write', 'not a url')).resolves.toBe(false);
  });

  it('cancels the requests the window guard refuses', async () => {
    const { session, send } = fakeSession();
    applySessionPolicy(session, { serviceOrigin: SERVICE, allowsRequest: (url) => !url.startsWith(SERVICE) });
    await expect(send(`${SERVICE}/api/v0/stats?ts=1`)).resolves.toEqual({ cancel: true });
    await expect(send('https://github.com/')).resolves.toEqual({ cancel: false });
  });

  it("forgets the origin's HTTP cache and service workers, for that origin only", async () => {
    const { session, cleared } = fakeSession();
    await forgetOrigin(session, SERVICE);
    expect(cleared).toEqual([{ dataTypes: ['cache', 'serviceWorkers'], origins: [SERVICE] }]);
  });
});

describe('allowsPermission', () => {
  it('is the clipboard write, from the top frame of the service origin, only', () => {
    expect(allowsPermission('clipboard-sanitized-write', { origin: SERVICE, isMainFrame: true }, SERVICE)).toBe(true);
    expect(allowsPermission('clipboard-read', { origin: SERVICE, isMainFrame: true }, SERVICE)).toBe(false);
    expect(allowsPermission('clipboard-sanitized-write', { origin: 'null', isMainFrame: true }, SERVICE)).toBe(false);
  });
});
