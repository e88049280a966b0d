import { join } from 'node:path';
import type { TrayIconState } from './tray-status.js';

/**
 * The tray icon files (made by `npm run icons` from build/icon.svg into build/tray/, shipped as the
 * package's `tray/` resource). macOS: black-and-alpha template images that the menu bar tints for
 * light and dark (`<state>Template.png` and `@2x`, which Electron picks by itself); Windows: one .ico
 * per state with every size the taskbar asks for; Linux: colour PNGs with a light rim, legible on dark
 * and light panels alike.
 */
export function trayIconFile(dir: string, platform: NodeJS.Platform, state: TrayIconState): string {
  if (platform === 'darwin') return join(dir, 'mac', `${state}Template.png`);
  if (platform === 'win32') return join(dir, 'windows', `${state}.ico`);
  return join(dir, 'linux', `${state}.png`);
}

/** build/tray in a checkout; `<resources>/tray` inside the packaged app (electron-builder extraResources). */
export function trayIconDir(init: { isPackaged: boolean; resourcesPath: string; appRoot: string }): string {
  return init.isPackaged ? join(init.resourcesPath, 'tray') : join(init.appRoot, 'build', 'tray');
}
