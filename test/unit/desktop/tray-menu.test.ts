import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import { electronMenuTemplate } from '../../../main/desktop/menu.js';
import type { ServiceStatus } from '../../../main/desktop/service-status.js';
import { trayMenu, type TrayAction, type TrayMenuItem, type TrayMenuSettings } from '../../../main/desktop/tray-menu.js';
import { folderRow } from './shell-fixtures.js';

const running: ServiceStatus = { state: 'running' };
const ORIGIN = 'http://127.0.0.1:5080';
const settings: TrayMenuSettings = { launchAtLogin: false, gatewayOrigin: ORIGIN };

/** The menu as lines: `label [off]`, `— status —`, `---`, submenus indented. */
function outline(items: readonly TrayMenuItem[], indent = ''): string[] {
  return items.flatMap((item) => {
    switch (item.type) {
      case 'separator':
        return [`${indent}---`];
      case 'status':
        return [`${indent}— ${item.label} —`];
      case 'submenu':
        return [`${indent}${item.label} ▸`, ...outline(item.items, `${indent}  `)];
      case 'checkbox':
        return [`${indent}[${item.checked ? 'x' : ' '}] ${item.label}${item.enabled ? '' : ' [off]'}`];
      case 'action':
        return [`${indent}${item.label}${item.enabled ? '' : ' [off]'}`];
    }
  });
}

function find(items: readonly TrayMenuItem[], label: string): TrayMenuItem {
  for (const item of items) {
    if ('label' in item && item.label === label) return item;
    if (item.type === 'submenu') {
      const inner = item.items.find((child) => 'label' in child && child.label === label);
      if (inner) return inner;
    }
  }
  throw new Error(`no item ${label}`);
}

const actionOf = (item: TrayMenuItem): TrayAction => {
  if (item.type !== 'action' && item.type !== 'checkbox') throw new Error(`${item.type} has no action`);
  return item.action;
};

describe('trayMenu', () => {
  it('idle with folders: every entry in order, a submenu per folder sorted by name', () => {
    const folders = [folderRow({ id: 'b', path: '/home/me/Photos', files: 1 }), folderRow({ id: 'a', path: '/home/me/Documents', ipns_name: '' })];
    expect(outline(trayMenu(running, folders, settings))).toEqual([
      'Open Pinfold',
      '— Up to date: 2 folders synced —',
      '---',
      'Pause all syncing',
      'Add folder to sync…',
      '---',
      'Documents ▸',
      '  — Up to date, 3 files —',
      '  Open folder',
      '  Copy gateway link of the latest version',
      '  Copy IPNS link [off]',
      'Photos ▸',
      '  — Up to date, 1 file —',
      '  Open folder',
      '  Copy gateway link of the latest version',
      '  Copy IPNS link',
      '---',
      'Open in browser',
      'Run garbage collection',
      '---',
      '[ ] Launch at login',
      '---',
      'Quit Pinfold',
    ]);
  });

  it('per-folder actions carry the folder path and its links', () => {
    const folder = folderRow({ id: 'a', path: '/home/me/Photos' });
    const menu = trayMenu(running, [folder], settings);
    expect(actionOf(find(menu, 'Open folder'))).toEqual({ kind: 'open-folder', path: '/home/me/Photos' });
    expect(actionOf(find(menu, 'Copy gateway link of the latest version'))).toEqual({ kind: 'copy', text: `${ORIGIN}/ipfs/${folder.root}` });
    expect(actionOf(find(menu, 'Copy IPNS link'))).toEqual({ kind: 'copy', text: `${ORIGIN}/ipns/${folder.ipns_name}` });
  });

  it('syncing: pause names the folders that run; a folder mid-scan has no link yet', () => {
    const folders = [
      folderRow({ id: 'a', state: 'syncing', pending: 5 }),
      folderRow({ id: 'b', state: 'scanning', root: '', ipns_name: '' }),
      folderRow({ id: 'c', state: 'paused' }),
    ];
    const menu = trayMenu(running, folders, settings);
    expect(find(menu, 'Syncing 2 folders, 5 files left').type).toBe('status');
    expect(actionOf(find(menu, 'Pause all syncing'))).toEqual({ kind: 'pause-all', ids: ['a', 'b'] });
    const scanning = menu.find((item) => item.type === 'submenu' && item.label === 'b');
    expect(scanning && outline([scanning])).toEqual([
      'b ▸',
      '  — Scanning… —',
      '  Open folder',
      '  Copy gateway link of the latest version [off]',
      '  Copy IPNS link [off]',
    ]);
  });

  it('paused: Resume in place of Pause, for the folders the user paused (not those an error paused)', () => {
    const folders = [folderRow({ id: 'a', state: 'paused' }), folderRow({ id: 'b', state: 'paused', error: 'folder vanished' })];
    const menu = trayMenu(running, folders, settings);
    expect(outline(menu).slice(0, 5)).toEqual(['Open Pinfold', '— b needs attention: folder vanished —', '---', 'Resume syncing', 'Add folder to sync…']);
    expect(actionOf(find(menu, 'Resume syncing'))).toEqual({ kind: 'resume-all', ids: ['a'] });
    expect(outline(menu)).toContain('b (needs attention) ▸');
    expect(outline(menu)).toContain('  — folder vanished —');
    expect(outline(menu)).toContain('a (paused) ▸');
  });

  it('error: the folder in error says why; pause still offered for the others', () => {
    const folders = [folderRow({ id: 'a', state: 'error', error: 'permission denied' }), folderRow({ id: 'b' })];
    const menu = trayMenu(running, folders, settings);
    expect(outline(menu)[1]).toBe('— a needs attention: permission denied —');
    expect(actionOf(find(menu, 'Pause all syncing'))).toEqual({ kind: 'pause-all', ids: ['a', 'b'] });
  });

  it('followed folders are listed with the synced ones, marked as followed, with where from and their state', () => {
    const NAME = 'k51qzi5uqu5dlvj2baxnqndepeb86cbk3ng7n3i46uzyxzyqj2xjonzllnv0v8';
    const folders = [
      folderRow({ id: 'a', path: '/home/me/Site', mode: 'follow', source: `https://gw.example.org/ipns/${NAME}`, seq: 42 }),
      folderRow({
        id: 'b',
        path: '/home/me/Notes',
        mode: 'follow',
        source: `/ipns/${NAME}`,
        seq: 7,
        local_changes: [{ path: 'a.txt', change: 'modified', beside: [] }],
      }),
      folderRow({ id: 'c', path: '/home/me/Mirror', mode: 'follow', source: `/ipns/${NAME}`, state: 'error', error: 'the source is offline' }),
      folderRow({ id: 'd', path: '/home/me/Photos' }),
    ];
    const lines = outline(trayMenu(running, folders, settings));
    expect(lines).toContain('Site (following) ▸');
    expect(lines).toContain('  — Up to date, sequence 42 —');
    expect(lines).toContain('  — From gw.example.org —');
    expect(lines).toContain('Notes (following) ▸');
    expect(lines).toContain('  — Up to date, sequence 7; 1 local change kept —');
    expect(lines).toContain('  — From k51qzi5uqu…lnv0v8 —');
    expect(lines).toContain('Mirror (following, needs attention) ▸');
    expect(lines).toContain('  — the source is offline —');
    expect(lines).toContain('Photos ▸');
    // Pause all pauses followed folders too: they are paused and resumed like sync folders.
    expect(actionOf(find(trayMenu(running, folders, settings), 'Pause all syncing'))).toEqual({ kind: 'pause-all', ids: ['a', 'b', 'c', 'd'] });
    const updating = outline(trayMenu(running, [folderRow({ id: 'a', path: '/x/Site', mode: 'follow', state: 'syncing' })], settings));
    expect(updating).toContain('  — Updating to a newer version… —');
    const waiting = outline(trayMenu(running, [folderRow({ id: 'a', path: '/x/Site', mode: 'follow', state: 'idle', root: '' })], settings));
    expect(waiting).toContain('  — Waiting for the first version —');
  });

  it('a sync folder whose name another machine published says it is not published', () => {
    const conflict = { seq: 9, value: '/ipfs/bafyother', seen_at: 1_700_000_000, source: 'pushed' };
    const lines = outline(trayMenu(running, [folderRow({ id: 'a', path: '/home/me/Site', conflict })], settings));
    expect(lines).toContain('Site (not published) ▸');
    expect(lines).toContain('  — Synced, not published: another machine published its name —');
  });

  it('no folders: nothing to pause, no folder section', () => {
    expect(outline(trayMenu(running, [], settings))).toEqual([
      'Open Pinfold',
      '— No folders synced yet —',
      '---',
      'Pause all syncing [off]',
      'Add folder to sync…',
      '---',
      'Open in browser',
      'Run garbage collection',
      '---',
      '[ ] Launch at login',
      '---',
      'Quit Pinfold',
    ]);
  });

  it('service down: only what needs no service stays on; links off without a gateway', () => {
    const menu = trayMenu({ state: 'crashed', detail: 'The Pinfold service could not start: port 5080 is in use.' }, [folderRow({ id: 'a' })], {
      ...settings,
      gatewayOrigin: null,
    });
    expect(outline(menu)).toEqual([
      'Open Pinfold',
      '— The Pinfold service could not start: port 5080 is in use. —',
      'Start Pinfold again',
      '---',
      'Pause all syncing [off]',
      'Add folder to sync… [off]',
      '---',
      'a ▸',
      '  — Up to date, 3 files —',
      '  Open folder',
      '  Copy gateway link of the latest version [off]',
      '  Copy IPNS link [off]',
      '---',
      'Open in browser [off]',
      'Run garbage collection [off]',
      '---',
      '[ ] Launch at login',
      '---',
      'Quit Pinfold',
    ]);
  });

  it('offers Start Pinfold again only when the supervisor gave up', () => {
    const crashed = trayMenu({ state: 'crashed', detail: 'It stopped 5 times.' }, [], settings);
    expect(actionOf(find(crashed, 'Start Pinfold again'))).toEqual({ kind: 'restart-service' });
    for (const state of [running, { state: 'restarting' as const }, { state: 'starting' as const }])
      expect(outline(trayMenu(state, [], settings))).not.toContain('Start Pinfold again');
  });

  it('launch at login: the checkbox toggles, and is off while unknown; GC shows it runs', () => {
    expect(actionOf(find(trayMenu(running, [], settings), 'Launch at login'))).toEqual({ kind: 'set-launch-at-login', on: true });
    const on = find(trayMenu(running, [], { ...settings, launchAtLogin: true }), 'Launch at login');
    expect(on).toMatchObject({ type: 'checkbox', checked: true, enabled: true, action: { kind: 'set-launch-at-login', on: false } });
    expect(find(trayMenu(running, [], { ...settings, launchAtLogin: null }), 'Launch at login')).toMatchObject({ enabled: false, checked: false });
    expect(find(trayMenu(running, [], { ...settings, collectingGarbage: true }), 'Running garbage collection…')).toMatchObject({ enabled: false });
  });
});

describe('electronMenuTemplate', () => {
  it('maps each item kind and runs the tagged action on click', () => {
    const ran: TrayAction[] = [];
    const template = electronMenuTemplate(trayMenu(running, [folderRow({ id: 'a', path: '/p/a' })], settings), (action) => ran.push(action));
    const click = (item: MenuItemConstructorOptions | undefined) => (item?.click as (() => void) | undefined)?.();
    expect(template[0]).toMatchObject({ label: 'Open Pinfold', enabled: true });
    expect(template[1]).toMatchObject({ label: 'Up to date: 1 folder synced', enabled: false });
    expect(template[1]?.click).toBeUndefined();
    expect(template[2]).toEqual({ type: 'separator' });
    const folder = template.find((item) => item.label === 'a');
    const submenu = folder?.submenu as MenuItemConstructorOptions[];
    expect(submenu.map((item) => item.label)).toEqual(['Up to date, 3 files', 'Open folder', 'Copy gateway link of the latest version', 'Copy IPNS link']);
    const checkbox = template.find((item) => item.type === 'checkbox');
    expect(checkbox).toMatchObject({ label: 'Launch at login', checked: false });
    click(template[0]);
    click(submenu[1]);
    click(checkbox);
    expect(ran).toEqual([{ kind: 'open-window' }, { kind: 'open-folder', path: '/p/a' }, { kind: 'set-launch-at-login', on: true }]);
  });
});
