import { describe, expect, it } from 'vitest';
import type { FolderMonitor } from '../../../main/desktop/folder-monitor.js';
import type { LocalApi } from '../../../main/desktop/local-api.js';
import { TrayActions, type TrayEffects } from '../../../main/desktop/tray-actions.js';
import { TrayDrawing, type TrayView } from '../../../main/desktop/tray-drawing.js';
import type { TrayMenuItem } from '../../../main/desktop/tray-menu.js';
import { deferred } from '../../helpers/deferred.js';
import { folderRow } from './shell-fixtures.js';

function setup(api: Partial<LocalApi>, launchAtLogin = { isEnabled: () => Promise.resolve(true), setEnabled: (_on: boolean) => Promise.resolve() }) {
  const shown: { menu: TrayMenuItem[] }[] = [];
  const failures: string[] = [];
  const view: TrayView = { show: (drawn) => shown.push(drawn) };
  let refreshes = 0;
  const content: FolderMonitor = {
    current: () => ({ folders: [folderRow({ id: 'a' }), folderRow({ id: 'b' })], usage: null }),
    onChange: () => () => undefined,
    refresh: () => {
      refreshes++;
      return Promise.resolve();
    },
    stop: () => undefined,
  };
  const status = { current: () => ({ state: 'running' as const }), onChange: () => () => undefined };
  // Long enough that no redraw fires during a test: what is drawn is asked for with draw().
  const drawing = new TrayDrawing({ view, status, content, gatewayOrigin: () => null }, 60_000);
  const effects = { failed: (title: string, message: string) => failures.push(`${title}: ${message}`) } as unknown as TrayEffects;
  const actions = new TrayActions({ content, api: api as LocalApi, launchAtLogin, effects, drawing, report: () => undefined });
  return { actions, drawing, shown, failures, refreshes: () => refreshes };
}

describe('tray actions', () => {
  it('collect garbage: its flag is up while it runs, a second ask meanwhile does nothing, and a failure is told', async () => {
    const running = deferred();
    let calls = 0;
    const { actions, drawing, failures } = setup({
      collectGarbage: () => {
        calls++;
        return running.promise;
      },
    });
    const first = actions.run({ kind: 'collect-garbage' });
    expect(drawing.flags.collectingGarbage).toBe(true);
    await actions.run({ kind: 'collect-garbage' });
    expect(calls).toBe(1);
    running.reject(new Error('store busy'));
    await first;
    expect(drawing.flags.collectingGarbage).toBe(false);
    expect(failures).toEqual(['Garbage collection failed: store busy']);
    drawing.stop();
  });

  it('pause all: every folder is asked even when one refuses; the list is read again, then the refusal told', async () => {
    const asked: string[] = [];
    const { actions, drawing, failures, refreshes } = setup({
      pauseFolder: (id) => {
        asked.push(id);
        return id === 'a' ? Promise.reject(new Error('no such folder')) : Promise.resolve();
      },
    });
    await actions.run({ kind: 'pause-all', ids: ['a', 'b'] });
    expect(asked).toEqual(['a', 'b']);
    expect(refreshes()).toBe(1);
    expect(failures).toEqual(['Could not pause syncing: no such folder']);
    drawing.stop();
  });

  it('launch at login: a failed change is told, and the setting is read again into the flags either way', async () => {
    let enabled = false;
    const { actions, drawing, failures } = setup(
      {},
      {
        isEnabled: () => Promise.resolve(enabled),
        setEnabled: (on) => (on ? Promise.reject(new Error('denied')) : Promise.resolve()),
      },
    );
    enabled = true;
    await actions.run({ kind: 'set-launch-at-login', on: true });
    expect(failures).toEqual(['Could not change launch at login: denied']);
    expect(drawing.flags.launchAtLogin).toBe(true);
    drawing.stop();
  });

  it('adds each folder, telling the ones that cannot be synced, and reads the list once after', async () => {
    const { actions, drawing, failures, refreshes } = setup({
      addFolder: (path) => (path === '/nope' ? Promise.reject(new Error('not a folder')) : Promise.resolve({} as Awaited<ReturnType<LocalApi['addFolder']>>)),
    });
    await actions.addFolders(['/nope', '/home/me/c']);
    expect(failures).toEqual(['Could not sync /nope: not a folder']);
    expect(refreshes()).toBe(1);
    drawing.stop();
  });
});

describe('tray drawing', () => {
  it('draws from the flags, and nothing once stopped', () => {
    const { drawing, shown } = setup({});
    drawing.flags.collectingGarbage = true;
    drawing.draw();
    expect(shown).toHaveLength(1);
    expect(JSON.stringify(shown[0]?.menu)).toContain('Running garbage collection…');
    drawing.stop();
    drawing.draw();
    expect(shown).toHaveLength(1);
  });
});
