import type { MenuItemConstructorOptions, OpenDialogOptions } from 'electron';
import type { ShellHost } from './desktop-shell.js';
import { electronMenuTemplate } from './menu.js';
import type { TrayAction } from './tray-menu.js';
import type { TrayView } from './tray-controller.js';
import type { TrayIconState } from './tray-status.js';

/**
 * The shell's host built from Electron's objects, which main.ts passes in (this file loads no
 * Electron at run time; the tests pass stand-ins). Each member is one Electron call, nothing more.
 */
export interface TrayLike {
  setImage(image: string): void;
  setToolTip(toolTip: string): void;
  setContextMenu(menu: unknown): void;
}

export interface ElectronParts<M> {
  tray: TrayLike;
  buildMenu(template: MenuItemConstructorOptions[]): M;
  trayIconFile(state: TrayIconState): string;
  showNotification(options: { title: string; body: string }, onClick: () => void): void;
  showOpenDialog(options: OpenDialogOptions): Promise<{ canceled: boolean; filePaths: string[] }>;
  /** shell.openPath: resolves '' on success, else the OS's reason. */
  openPath(path: string): Promise<string>;
  openExternal(url: string): Promise<void>;
  writeClipboard(text: string): Promise<void>;
  openWindow(path?: string): void;
  quit(): void;
}

/** Redraws only what changed: a new icon file or tooltip each time would flicker on some panels. */
export function electronTrayView<M>(parts: Pick<ElectronParts<M>, 'tray' | 'buildMenu' | 'trayIconFile'>, run: (action: TrayAction) => void): TrayView {
  let icon: string | null = null;
  let tooltip: string | null = null;
  let menuJson: string | null = null;
  return {
    show(view) {
      const file = parts.trayIconFile(view.icon);
      if (file !== icon) parts.tray.setImage((icon = file));
      if (view.tooltip !== tooltip) parts.tray.setToolTip((tooltip = view.tooltip));
      const json = JSON.stringify(view.menu);
      if (json !== menuJson) {
        menuJson = json;
        parts.tray.setContextMenu(parts.buildMenu(electronMenuTemplate(view.menu, run)));
      }
    },
  };
}

export function electronShellHost<M>(parts: ElectronParts<M>, run: (action: TrayAction) => void): ShellHost {
  return {
    trayView: electronTrayView(parts, run),
    notify: ({ title, body, onClick }) => parts.showNotification({ title, body }, onClick),
    openWindow: (path) => parts.openWindow(path),
    async pickFolder() {
      const result = await parts.showOpenDialog({
        title: 'Add a folder to sync',
        buttonLabel: 'Sync this folder',
        properties: ['openDirectory', 'createDirectory'],
      });
      return result.canceled ? null : (result.filePaths[0] ?? null);
    },
    async openPath(path) {
      const failure = await parts.openPath(path);
      if (failure !== '') throw new Error(failure);
    },
    copyText: (text) => parts.writeClipboard(text),
    openExternal: (url) => parts.openExternal(url),
    quit: () => parts.quit(),
  };
}
