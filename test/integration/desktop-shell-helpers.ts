import type { ShellHost } from '../../main/desktop/desktop-shell.js';
import type { LaunchAtLogin } from '../../main/desktop/launch-at-login.js';
import type { TrayAction, TrayMenuItem } from '../../main/desktop/tray-menu.js';
import type { TrayIconState } from '../../main/desktop/tray-status.js';
import { until } from '../helpers/until.js';

/** One redraw of the tray, as the shell handed it to Electron. */
export interface Drawn {
  icon: TrayIconState;
  tooltip: string;
  menu: TrayMenuItem[];
}

/** The shell's stand-in for Electron: records what it drew and asked for. */
export function recordingHost(pickedFolder: () => string | null) {
  const drawn: Drawn[] = [];
  const notes: Array<{ title: string; body: string; onClick(): void }> = [];
  const windows: Array<string | undefined> = [];
  const external: string[] = [];
  const clipboard: string[] = [];
  const opened: string[] = [];
  let quits = 0;
  const host: ShellHost = {
    trayView: { show: (view) => void drawn.push(view) },
    notify: (note) => void notes.push(note),
    openWindow: (page) => void windows.push(page),
    pickFolder: async () => pickedFolder(),
    openPath: async (folder) => void opened.push(folder),
    copyText: async (text) => void clipboard.push(text),
    openExternal: async (url) => void external.push(url),
    quit: () => void (quits += 1),
  };
  return { host, drawn, notes, windows, external, clipboard, opened, quits: () => quits, last: () => drawn[drawn.length - 1] };
}

export function memoryLaunchAtLogin(): LaunchAtLogin & { value: boolean } {
  const state = {
    value: false,
    isEnabled: async () => state.value,
    setEnabled: async (on: boolean) => void (state.value = on),
  };
  return state;
}

/** The action of the enabled menu item with this label (top level or one submenu down). */
export function itemAction(menu: readonly TrayMenuItem[], label: string): TrayAction {
  for (const item of menu) {
    if ((item.type === 'action' || item.type === 'checkbox') && item.label === label && item.enabled) return item.action;
    if (item.type === 'submenu') {
      const inner = item.items.find((child) => (child.type === 'action' || child.type === 'checkbox') && child.label === label && child.enabled);
      if (inner && (inner.type === 'action' || inner.type === 'checkbox')) return inner.action;
    }
  }
  throw new Error(`no enabled menu item ${label}`);
}

/** The latest drawing once it satisfies `test`. */
export const drawnWith = (view: () => Drawn | undefined, what: string, test: (drawn: Drawn) => boolean, ms?: number) =>
  until(
    what,
    () => {
      const drawn = view();
      return drawn !== undefined && test(drawn) ? drawn : undefined;
    },
    ms,
  );
