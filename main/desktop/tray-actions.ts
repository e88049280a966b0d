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

/** The tray menu's actions, run against the local API; a failure the user asked for is told in a notification. */
export class TrayActions {
  constructor(private readonly init: TrayActionsInit) {}

  readonly run = async (action: TrayAction): Promise<void> => {
    const { api, effects } = this.init;
    switch (action.kind) {
      case 'open-window':
        return effects.openWindow();
      case 'quit':
        return effects.quit();
      case 'restart-service':
        return effects.restartService();
      case 'copy':
        if (action.text === '') return;
        return effects.copyText(action.text).catch(this.failed('Could not copy the link'));
      case 'open-folder':
        return effects.openFolder(action.path).catch(this.failed('Could not open the folder'));
      case 'pause-all':
        return this.forEachFolder(action.ids, (id) => api.pauseFolder(id)).catch(this.failed('Could not pause syncing'));
      case 'resume-all':
        return this.forEachFolder(action.ids, (id) => api.resumeFolder(id)).catch(this.failed('Could not resume syncing'));
      case 'add-folder': {
        const path = await effects.pickFolder();
        if (path !== null) await this.addFolders([path]);
        return;
      }
      case 'open-in-browser':
        try {
          await effects.openInBrowser();
        } catch (error) {
          this.failed('Could not open Pinfold in the browser')(error);
        }
        return;
      case 'collect-garbage':
        return this.collectGarbage();
      case 'set-launch-at-login':
        try {
          await this.init.launchAtLogin.setEnabled(action.on);
        } catch (error) {
          this.failed('Could not change launch at login')(error);
        }
        return this.readLaunchAtLogin();
    }
  };

  /** Starts syncing each folder; a folder that cannot is told in a notification. */
  readonly addFolders = async (paths: readonly string[]): Promise<void> => {
    for (const path of paths) {
      try {
        await this.init.api.addFolder(path);
      } catch (error) {
        this.failed(`Could not sync ${path}`)(error);
      }
    }
    await this.init.content.refresh().catch(this.init.report);
  };

  /** Reads the launch-at-login setting into the tray's flags, then redraws. */
  readonly readLaunchAtLogin = async (): Promise<void> => {
    const { drawing } = this.init;
    try {
      drawing.flags.launchAtLogin = await this.init.launchAtLogin.isEnabled();
    } catch (error) {
      drawing.flags.launchAtLogin = null;
      this.init.report(error);
    }
    drawing.invalidate();
  };

  private failed(title: string): (error: unknown) => void {
    return (error) => this.init.effects.failed(title, error instanceof Error ? error.message : String(error));
  }

  private async forEachFolder(ids: readonly string[], call: (id: string) => Promise<void>): Promise<void> {
    // One folder that refuses (removed meanwhile: 404) must not keep the others as they were.
    const results = await Promise.allSettled(ids.map(call));
    const refused = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
    await this.init.content.refresh().catch(this.init.report);
    if (refused) throw refused.reason;
  }

  private async collectGarbage(): Promise<void> {
    const { drawing } = this.init;
    if (drawing.flags.collectingGarbage) return;
    drawing.flags.collectingGarbage = true;
    drawing.invalidate();
    try {
      await this.init.api.collectGarbage();
    } catch (error) {
      this.failed('Garbage collection failed')(error);
    } finally {
      drawing.flags.collectingGarbage = false;
      drawing.invalidate();
    }
  }
}
