import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import { electronShellHost, type ElectronParts, type TrayLike } from '../../../main/desktop/electron-host.js';
import type { TrayAction } from '../../../main/desktop/tray-menu.js';

/** Electron's tray, menus, dialog and shell as records of what the host asked of them. */
function fakeParts(overrides: Partial<ElectronParts<MenuItemConstructorOptions[]>> = {}) {
  const calls: unknown[][] = [];
  const tray: TrayLike = {
    setImage: (image) => void calls.push(['image', image]),
    setToolTip: (text) => void calls.push(['tooltip', text]),
    setContextMenu: (menu) => void calls.push(['menu', menu]),
  };
  const parts: ElectronParts<MenuItemConstructorOptions[]> = {
    tray,
    buildMenu: (template) => template,
    trayIconFile: (state) => `/tray/${state}.png`,
    showNotification: (options) => void calls.push(['notify', options]),
    showOpenDialog: async (options) => (calls.push(['dialog', options.properties]), { canceled: false, filePaths: ['/home/me/Photos'] }),
    openPath: async (path) => (calls.push(['openPath', path]), path === '/gone' ? 'Failed to open path' : ''),
    openExternal: async (url) => void calls.push(['openExternal', url]),
    writeClipboard: async (text) => void calls.push(['clipboard', text]),
    openWindow: (path) => void calls.push(['window', path]),
    quit: () => void calls.push(['quit']),
    ...overrides,
  };
  return { parts, calls };
}

describe('electronShellHost', () => {
  it('draws the tray, and only what changed', () => {
    const { parts, calls } = fakeParts();
    const ran: TrayAction[] = [];
    const host = electronShellHost(parts, (action) => ran.push(action));
    const menu = [{ type: 'action' as const, label: 'Quit Pinfold', action: { kind: 'quit' as const }, enabled: true }];
    host.trayView.show({ icon: 'idle', tooltip: 'Up to date', menu });
    host.trayView.show({ icon: 'idle', tooltip: 'Up to date', menu });
    host.trayView.show({ icon: 'syncing', tooltip: 'Up to date', menu });
    expect(calls.map(([what]) => what)).toEqual(['image', 'tooltip', 'menu', 'image']);
    expect(calls[3]).toEqual(['image', '/tray/syncing.png']);
    const template = calls[2]?.[1] as MenuItemConstructorOptions[];
    (template[0]?.click as () => void)();
    expect(ran).toEqual([{ kind: 'quit' }]);
  });

  it('picks a folder, or null when cancelled', async () => {
    const { parts, calls } = fakeParts();
    await expect(electronShellHost(parts, () => {}).pickFolder()).resolves.toBe('/home/me/Photos');
    expect(calls).toEqual([['dialog', ['openDirectory', 'createDirectory']]]);
    const cancelled = fakeParts({ showOpenDialog: async () => ({ canceled: true, filePaths: [] }) });
    await expect(electronShellHost(cancelled.parts, () => {}).pickFolder()).resolves.toBeNull();
  });

  it("turns shell.openPath's error string into a rejection", async () => {
    const { parts } = fakeParts();
    const host = electronShellHost(parts, () => {});
    await expect(host.openPath('/home/me/Photos')).resolves.toBeUndefined();
    await expect(host.openPath('/gone')).rejects.toThrow('Failed to open path');
  });

  it('passes notifications, clipboard, browser, window and quit through', async () => {
    const { parts, calls } = fakeParts();
    const host = electronShellHost(parts, () => {});
    host.notify({ title: 't', body: 'b', onClick: () => {} });
    await host.copyText('http://127.0.0.1:5080/ipfs/bafkqaaa');
    await host.openExternal('http://127.0.0.1:5080/signin?code=c');
    host.openWindow('/sync/1');
    host.quit();
    expect(calls).toEqual([
      ['notify', { title: 't', body: 'b' }],
      ['clipboard', 'http://127.0.0.1:5080/ipfs/bafkqaaa'],
      ['openExternal', 'http://127.0.0.1:5080/signin?code=c'],
      ['window', '/sync/1'],
      ['quit'],
    ]);
  });
});
