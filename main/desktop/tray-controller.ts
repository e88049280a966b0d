import type { FolderMonitor } from './folder-monitor.js';
import type { LaunchAtLogin } from './launch-at-login.js';
import type { LocalApi } from './local-api.js';
import type { ServiceStatusSource } from './service-status.js';
import { trayMenu, type TrayAction, type TrayMenuItem } from './tray-menu.js';
import { trayIconState, trayStatusLine, type TrayIconState } from './tray-status.js';

/**
 * The tray, kept in step with the service: icon, one-line tooltip and menu are redrawn (at most every
 * `redrawMs`) from the service status, the sync folders and the settings, and the menu's actions run
 * here against the local API. Electron stays behind `TrayView`, so this runs under Node in the tests.
 */
export interface TrayView {
  show(view: { icon: TrayIconState; tooltip: string; menu: TrayMenuItem[] }): void;
}

/** What the tray's actions reach outside the service's API. */
export interface TrayEffects {
  openWindow(): void;
  pickFolder(): Promise<string | null>;
  openFolder(path: string): Promise<void>;
  copyText(text: string): Promise<void>;
  /** The window in the user's browser, signed in by a one-time sign-in page (never the secret itself). */
  openInBrowser(): Promise<void>;
  /** Starts the service again after the supervisor gave up on it. */
  restartService(): void;
  /** Something the user asked for failed: tell them (a notification). */
  failed(title: string, message: string): void;
  quit(): void;
}

export interface TrayControllerInit {
  view: TrayView;
  status: ServiceStatusSource;
  content: FolderMonitor;
  api: LocalApi;
  launchAtLogin: LaunchAtLogin;
  gatewayOrigin(): string | null;
  effects: TrayEffects;
  redrawMs?: number;
  onError?: (error: unknown) => void;
}

export interface TrayController {
  run(action: TrayAction): Promise<void>;
  /** Starts syncing each folder (a drop on the tray icon, macOS); a folder that cannot is told in a notification. */
  addFolders(paths: readonly string[]): Promise<void>;
  /** Redraw soon (a setting changed elsewhere, e.g. launch at login from the window). */
  invalidate(): void;
  stop(): void;
}

export function startTrayController(init: TrayControllerInit): TrayController {
  const redrawMs = init.redrawMs ?? 200;
  const report = init.onError ?? (() => {});
  let launchAtLogin: boolean | null = null;
  let collectingGarbage = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let stopped = false;

  const draw = () => {
    timer = null;
    if (stopped) return;
    const service = init.status.current();
    const { folders } = init.content.current();
    init.view.show({
      icon: trayIconState(service, folders),
      tooltip: trayStatusLine(service, folders),
      menu: trayMenu(service, folders, { launchAtLogin, gatewayOrigin: init.gatewayOrigin(), collectingGarbage }),
    });
  };
  const invalidate = () => {
    if (stopped || timer !== null) return;
    timer = setTimeout(draw, redrawMs);
  };
  const readLaunchAtLogin = async () => {
    try {
      launchAtLogin = await init.launchAtLogin.isEnabled();
    } catch (error) {
      launchAtLogin = null;
      report(error);
    }
    invalidate();
  };

  const failed = (title: string, error: unknown) => init.effects.failed(title, error instanceof Error ? error.message : String(error));

  const forEachFolder = async (ids: readonly string[], call: (id: string) => Promise<void>) => {
    // One folder that refuses (removed meanwhile: 404) must not keep the others as they were.
    const results = await Promise.allSettled(ids.map(call));
    const refused = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
    await init.content.refresh().catch(report);
    if (refused) throw refused.reason;
  };

  const addFolders = async (paths: readonly string[]) => {
    for (const path of paths) {
      try {
        await init.api.addFolder(path);
      } catch (error) {
        failed(`Could not sync ${path}`, error);
      }
    }
    await init.content.refresh().catch(report);
  };

  const run = async (action: TrayAction): Promise<void> => {
    switch (action.kind) {
      case 'open-window':
        return init.effects.openWindow();
      case 'quit':
        return init.effects.quit();
      case 'restart-service':
        return init.effects.restartService();
      case 'copy':
        if (action.text === '') return;
        return init.effects.copyText(action.text).catch((error: unknown) => failed('Could not copy the link', error));
      case 'open-folder':
        return init.effects.openFolder(action.path).catch((error: unknown) => failed('Could not open the folder', error));
      case 'pause-all':
        return forEachFolder(action.ids, (id) => init.api.pauseFolder(id)).catch((error: unknown) => failed('Could not pause syncing', error));
      case 'resume-all':
        return forEachFolder(action.ids, (id) => init.api.resumeFolder(id)).catch((error: unknown) => failed('Could not resume syncing', error));
      case 'add-folder': {
        const path = await init.effects.pickFolder();
        if (path !== null) await addFolders([path]);
        return;
      }
      case 'open-in-browser':
        try {
          await init.effects.openInBrowser();
        } catch (error) {
          failed('Could not open Pinfold in the browser', error);
        }
        return;
      case 'collect-garbage':
        if (collectingGarbage) return;
        collectingGarbage = true;
        invalidate();
        try {
          await init.api.collectGarbage();
        } catch (error) {
          failed('Garbage collection failed', error);
        } finally {
          collectingGarbage = false;
          invalidate();
        }
        return;
      case 'set-launch-at-login':
        try {
          await init.launchAtLogin.setEnabled(action.on);
        } catch (error) {
          failed('Could not change launch at login', error);
        }
        return readLaunchAtLogin();
    }
  };

  const stopStatus = init.status.onChange(invalidate);
  const stopContent = init.content.onChange(invalidate);
  void readLaunchAtLogin();
  draw();

  return {
    run,
    addFolders,
    invalidate: () => void readLaunchAtLogin(),
    stop() {
      stopped = true;
      stopStatus();
      stopContent();
      if (timer !== null) clearTimeout(timer);
    },
  };
}
