/**
 * A stand-in for the desktop preload's `window.pinfold`, installed before the page's scripts run
 * (addInitScript), so the desktop-only paths of the window are tested in plain Chromium. What each
 * method answers is data (addInitScript cannot carry functions); every call is recorded and can be
 * read back with bridgeCalls(page).
 */
import type { BrowserContext, Page } from 'playwright-core';

export interface BridgeStub {
  /** What getOwnerKey answers (null: the window was not opened by the desktop app). */
  ownerKey: { access_key: string; access_secret: string } | null;
  /** What pickFolder answers (null: the user cancelled). */
  pickedFolder?: string | null;
  /** Absolute paths pathForFile answers, by the File's name; a name not listed answers null. */
  filePaths?: Record<string, string>;
  /** Launch at login's initial value; leave out to offer no such setting (a desktop app without it). */
  launchAtLogin?: boolean;
  appVersion?: string;
  /** Whether keepSecret succeeds (the OS keychain accepts the secret). */
  keychainWorks?: boolean;
  /** Methods to make fail (reject with an Error) instead. */
  failing?: string[];
}

export interface BridgeCall {
  method: string;
  args: unknown[];
}

export async function stubBridge(context: BrowserContext | Page, stub: BridgeStub): Promise<void> {
  await context.addInitScript((config: BridgeStub) => {
    // Runs in the page; `globalThis` is its window (this file is type-checked without DOM types).
    const scope = globalThis as unknown as Record<string, unknown>;
    const calls: BridgeCall[] = [];
    scope.__pinfoldBridgeCalls = calls;
    const secrets = new Map<string, string>();
    let launchAtLogin = config.launchAtLogin ?? false;
    const record = <T>(method: string, args: unknown[], answer: () => T): Promise<T> => {
      calls.push({ method, args });
      if ((config.failing ?? []).includes(method)) return Promise.reject(new Error(`${method} failed (stub)`));
      return Promise.resolve(answer());
    };
    const bridge: Record<string, unknown> = {
      isDesktop: true,
      getOwnerKey: () => record('getOwnerKey', [], () => config.ownerKey),
      pickFolder: () => record('pickFolder', [], () => config.pickedFolder ?? null),
      openExternal: (url: string) => record('openExternal', [url], () => true),
      pathForFile: (file: { name: string }) => {
        calls.push({ method: 'pathForFile', args: [file.name] });
        return config.filePaths?.[file.name] ?? null;
      },
      keepSecret: (accessKey: string, secret: string) =>
        record('keepSecret', [accessKey], () => {
          if (config.keychainWorks === false) return false;
          secrets.set(accessKey, secret);
          return true;
        }),
      readSecret: (accessKey: string) => record('readSecret', [accessKey], () => secrets.get(accessKey) ?? null),
      forgetSecret: (accessKey: string) => record('forgetSecret', [accessKey], () => void secrets.delete(accessKey)),
      openFolder: (path: string) => record('openFolder', [path], () => true),
      appVersion: () => record('appVersion', [], () => config.appVersion ?? '0.0.0-test'),
    };
    if (config.launchAtLogin !== undefined) {
      bridge.getLaunchAtLogin = () => record('getLaunchAtLogin', [], () => launchAtLogin);
      bridge.setLaunchAtLogin = (on: boolean) =>
        record('setLaunchAtLogin', [on], () => {
          launchAtLogin = on;
        });
    }
    Object.defineProperty(globalThis, 'pinfold', { value: Object.freeze(bridge) });
  }, stub);
}

/** The bridge calls the page made so far, in order. */
export async function bridgeCalls(page: Page): Promise<BridgeCall[]> {
  return page.evaluate<BridgeCall[]>('globalThis.__pinfoldBridgeCalls ?? []');
}
