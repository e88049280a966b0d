import type { MenuItemConstructorOptions } from 'electron';
import type { TrayAction, TrayMenuItem } from './tray-menu.js';

/**
 * The application menu: standard roles only. It matters mostly on macOS, where copy and paste
 * (pasting an access key) only work through an Edit menu. Quit is in it on every platform (the app
 * menu on macOS, File on Windows and Linux): closing the window only hides it. The View menu is spelled
 * out rather than Electron's `viewMenu` role, which always holds Toggle Developer Tools: an installed
 * app (`packaged`) has none (window.ts turns them off too).
 */
export function appMenuTemplate(platform: NodeJS.Platform, packaged: boolean): MenuItemConstructorOptions[] {
  return [
    ...(platform === 'darwin' ? [{ role: 'appMenu' } as const] : []),
    { role: 'fileMenu' },
    { role: 'editMenu' },
    { label: 'View', submenu: viewMenu(packaged) },
    { role: 'windowMenu' },
  ];
}

function viewMenu(packaged: boolean): MenuItemConstructorOptions[] {
  return [
    { role: 'reload' },
    { role: 'forceReload' },
    ...(packaged ? [] : [{ role: 'toggleDevTools' } as const]),
    { type: 'separator' },
    { role: 'resetZoom' },
    { role: 'zoomIn' },
    { role: 'zoomOut' },
    { type: 'separator' },
    { role: 'togglefullscreen' },
  ];
}

/** The tray menu's items (tray-menu.ts) as Electron's template; a click hands the item's action to `run`. */
export function electronMenuTemplate(items: readonly TrayMenuItem[], run: (action: TrayAction) => void): MenuItemConstructorOptions[] {
  return items.map((item): MenuItemConstructorOptions => {
    switch (item.type) {
      case 'separator':
        return { type: 'separator' };
      case 'status':
        return { label: item.label, enabled: false };
      case 'submenu':
        return { label: item.label, submenu: electronMenuTemplate(item.items, run) };
      case 'checkbox':
        return { type: 'checkbox', label: item.label, checked: item.checked, enabled: item.enabled, click: () => run(item.action) };
      case 'action':
        return { label: item.label, enabled: item.enabled, click: () => run(item.action) };
    }
  });
}
