import type { MenuItemConstructorOptions } from 'electron';

/**
 * The application menu: standard roles only. It matters mostly on macOS, where copy and paste
 * (pasting an access key) only work through an Edit menu.
 */
export function appMenuTemplate(platform: NodeJS.Platform): MenuItemConstructorOptions[] {
  return [
    ...(platform === 'darwin' ? [{ role: 'appMenu' } as const] : []),
    { role: 'fileMenu' },
    { role: 'editMenu' },
    { role: 'viewMenu' },
    { role: 'windowMenu' },
  ];
}

export interface TrayActions {
  openWindow(): void;
  openInBrowser(): void;
  quit(): void;
}

export function trayMenuTemplate(actions: TrayActions): MenuItemConstructorOptions[] {
  return [
    { label: 'Open Pinfold', click: () => actions.openWindow() },
    { label: 'Open in Browser', click: () => actions.openInBrowser() },
    { type: 'separator' },
    { label: 'Quit Pinfold', click: () => actions.quit() },
  ];
}
