import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import { appMenuTemplate } from '../../../main/desktop/menu.js';

/** Every role in a menu template, submenus included. */
function roles(items: readonly MenuItemConstructorOptions[]): string[] {
  return items.flatMap((item) => [...(item.role !== undefined ? [item.role] : []), ...(Array.isArray(item.submenu) ? roles(item.submenu) : [])]);
}

describe('the application menu', () => {
  it.each(['darwin', 'win32', 'linux'] as const)('of an installed app on %s offers no DevTools', (platform) => {
    const found = roles(appMenuTemplate(platform, true));
    expect(found).not.toContain('toggleDevTools');
    // Electron's own View menu always holds Toggle Developer Tools.
    expect(found).not.toContain('viewMenu');
    expect(found).toEqual(expect.arrayContaining(['fileMenu', 'editMenu', 'windowMenu', 'reload', 'togglefullscreen']));
  });

  it('of a development run keeps them', () => {
    expect(roles(appMenuTemplate('linux', false))).toContain('toggleDevTools');
  });

  it('has the app menu (with Quit) on macOS only', () => {
    expect(roles(appMenuTemplate('darwin', true))[0]).toBe('appMenu');
    expect(roles(appMenuTemplate('win32', true))).not.toContain('appMenu');
  });
});
