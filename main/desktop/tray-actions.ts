import type { FolderMonitor } from './folder-monitor.js';
import type { LaunchAtLogin } from './launch-at-login.js';
import type { LocalApi } from './local-api.js';
import type { TrayDrawing } from './tray-drawing.js';
import type { TrayAction } from './tray-menu.js';

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

export interface TrayActionsInit {
  content: FolderMonitor;
  api: LocalApi;
  launchAtLogin: LaunchAtLogin;
  effects: TrayEffects;
  drawing: TrayDrawing;
  /** An error nobody asked about (a background read): logged, not shown. */
  report: (error: unknown) => void;
}

export interface TrayActions {
  run: (action: TrayAction) => Promise<void>;
  addFolders: (paths: readonly string[]) => Promise<void>;
  /** Reads the launch-at-login setting into the tray's flags, then redraws. */
  readLaunchAtLogin: () => Promise<void>;
}

/** The tray menu's actions, run against the local API; a failure the user asked for is told in a notification. */
export function trayActions(init: TrayActionsInit): TrayActions {
  const { api, content, effects, drawing, report } = init;
  const failed = (title: string) => (error: unknown) => effects.failed(title, error instanceof Error ? error.message : String(error));

  const forEachFolder = async (ids: readonly string[], call: (id: string) => Promise<void>) => {
    // One folder that refuses (removed meanwhile: 404) must not keep the others as they were.
    const results = await Promise.allSettled(ids.map(call));
    const refused = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
    await content.refresh().catch(report);
    if (refused) throw refused.reason;
  };
  const addFolders = async (paths: readonly string[]) => {
    for (const path of paths) {
      try {
        await api.addFolder(path);
      } catch (error) {
        failed(`Could not sync ${path}`)(error);
      }
    }
    await content.refresh().catch(report);
  };
  const readLaunchAtLogin = async () => {
    try {
      drawing.flags.launchAtLogin = await init.launchAtLogin.isEnabled();
    } catch (error) {
      drawing.flags.launchAtLogin = null;
      report(error);
    }
    drawing.invalidate();
  };
  const collectGarbage = async () => {
    if (drawing.flags.collectingGarbage) return;
    drawing.flags.collectingGarbage = true;
    drawing.invalidate();
    try {
      await api.collectGarbage();
    } catch (error) {
      failed('Garbage collection failed')(error);
    } finally {
      drawing.flags.collectingGarbage = false;
      drawing.invalidate();
    }
  };

  const run = async (action: TrayAction): Promise<void> => {
    switch (action.kind) {
      case 'open-window':
        return effects.openWindow();
      case 'quit':
        return effects.quit();
      case 'restart-service':
        return effects.restartService();
      case 'copy':
        if (action.text === '') return;
        return effects.copyText(action.text).catch(failed('Could not copy the link'));
      case 'open-folder':
        return effects.openFolder(action.path).catch(failed('Could not open the folder'));
      case 'pause-all':
        return forEachFolder(action.ids, (id) => api.pauseFolder(id)).catch(failed('Could not pause syncing'));
      case 'resume-all':
        return forEachFolder(action.ids, (id) => api.resumeFolder(id)).catch(failed('Could not resume syncing'));
      case 'add-folder': {
        const path = await effects.pickFolder();
        if (path !== null) await addFolders([path]);
        return;
      }
      case 'open-in-browser':
        try {
          await effects.openInBrowser();
        } catch (error) {
          failed('Could not open Pinfold in the browser')(error);
        }
        return;
      case 'collect-garbage':
        return collectGarbage();
      case 'set-launch-at-login':
        try {
          await init.launchAtLogin.setEnabled(action.on);
        } catch (error) {
          failed('Could not change launch at login')(error);
        }
        return readLaunchAtLogin();
    }
  };
  return { run, addFolders, readLaunchAtLogin };
}
