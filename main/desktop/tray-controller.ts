import type { FolderMonitor } from './folder-monitor.js';
import type { LaunchAtLogin } from './launch-at-login.js';
import type { LocalApi } from './local-api.js';
import type { ServiceStatusSource } from './service-status.js';
import { TrayActions, type TrayEffects } from './tray-actions.js';
import { TrayDrawing, type TrayView } from './tray-drawing.js';
import type { TrayAction } from './tray-menu.js';

// Where the tray is drawn and what its actions reach, wherever they are defined.
export type { TrayEffects, TrayView };

/**
 * The tray, kept in step with the service: icon, one-line tooltip and menu are redrawn (at most every
 * `redrawMs`) from the service status, the sync folders and the settings (tray-drawing.ts), and the
 * menu's actions run against the local API (tray-actions.ts). Electron stays behind `TrayView`, so this
 * runs under Node in the tests.
 */
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
  const report = init.onError ?? (() => {});
  const drawing = new TrayDrawing(init, init.redrawMs ?? 200);
  const actions = new TrayActions({ ...init, drawing, report });
  const stopStatus = init.status.onChange(drawing.invalidate);
  const stopContent = init.content.onChange(drawing.invalidate);
  void actions.readLaunchAtLogin();
  drawing.draw();

  return {
    run: actions.run,
    addFolders: actions.addFolders,
    invalidate: () => void actions.readLaunchAtLogin(),
    stop() {
      drawing.stop();
      stopStatus();
      stopContent();
    },
  };
}
