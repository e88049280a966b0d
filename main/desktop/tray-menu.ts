import type { SyncFolderView } from '../../shared/api-types.js';
import type { ServiceStatus } from './service-status.js';
import { folderName, followOrigin, needsAttention, trayStatusLine } from './tray-status.js';

/**
 * The tray menu as data: a pure function of (service status, folders, settings) → items whose actions
 * are tagged values. menu.ts turns them into Electron's template and the shell runs the actions, so
 * every state of the menu is tested without Electron.
 */
export type TrayAction =
  | { kind: 'open-window' }
  | { kind: 'pause-all'; ids: readonly string[] }
  | { kind: 'resume-all'; ids: readonly string[] }
  | { kind: 'add-folder' }
  | { kind: 'open-folder'; path: string }
  | { kind: 'copy'; text: string }
  | { kind: 'open-in-browser' }
  | { kind: 'collect-garbage' }
  | { kind: 'restart-service' }
  | { kind: 'set-launch-at-login'; on: boolean }
  | { kind: 'quit' };

export type TrayMenuItem =
  | { type: 'action'; label: string; action: TrayAction; enabled: boolean }
  | { type: 'checkbox'; label: string; checked: boolean; action: TrayAction; enabled: boolean }
  /** A line of text that does nothing (shown disabled). */
  | { type: 'status'; label: string }
  | { type: 'separator' }
  | { type: 'submenu'; label: string; items: TrayMenuItem[] };

export interface TrayMenuSettings {
  /** Null while not known yet (the checkbox is then disabled). */
  launchAtLogin: boolean | null;
  /** The local gateway's origin, e.g. http://127.0.0.1:5080, for the links; null while the service is down. */
  gatewayOrigin: string | null;
  /** A garbage collection the tray started is still running. */
  collectingGarbage?: boolean;
}

const separator: TrayMenuItem = { type: 'separator' };

export function trayMenu(service: ServiceStatus, folders: readonly SyncFolderView[] | null, settings: TrayMenuSettings): TrayMenuItem[] {
  const running = service.state === 'running';
  const known = folders ?? [];
  const items: TrayMenuItem[] = [
    { type: 'action', label: 'Open Pinfold', action: { kind: 'open-window' }, enabled: true },
    { type: 'status', label: trayStatusLine(service, folders) },
    // The supervisor gave up after repeated crashes: the user starts it again here once the cause is fixed.
    ...(service.state === 'crashed'
      ? [{ type: 'action' as const, label: 'Start Pinfold again', action: { kind: 'restart-service' as const }, enabled: true }]
      : []),
    separator,
    pauseOrResume(known, running),
    { type: 'action', label: 'Add folder to sync…', action: { kind: 'add-folder' }, enabled: running },
  ];
  const sorted = [...known].sort((a, b) => folderName(a.path).localeCompare(folderName(b.path)) || a.path.localeCompare(b.path));
  if (sorted.length > 0) items.push(separator, ...sorted.map((folder) => folderMenu(folder, settings.gatewayOrigin)));
  items.push(
    separator,
    { type: 'action', label: 'Open in browser', action: { kind: 'open-in-browser' }, enabled: running },
    {
      type: 'action',
      label: settings.collectingGarbage ? 'Running garbage collection…' : 'Run garbage collection',
      action: { kind: 'collect-garbage' },
      enabled: running && !settings.collectingGarbage,
    },
    separator,
    {
      type: 'checkbox',
      label: 'Launch at login',
      checked: settings.launchAtLogin === true,
      action: { kind: 'set-launch-at-login', on: settings.launchAtLogin !== true },
      enabled: settings.launchAtLogin !== null,
    },
    separator,
    { type: 'action', label: 'Quit Pinfold', action: { kind: 'quit' }, enabled: true },
  );
  return items;
}

/**
 * Pause every folder that is not paused; when all are, resume those the user paused (a folder paused by
 * an error resumes through its Retry in the window, once the user fixed the cause).
 */
function pauseOrResume(folders: readonly SyncFolderView[], running: boolean): TrayMenuItem {
  const active = folders.filter((folder) => folder.state !== 'paused').map((folder) => folder.id);
  const resumable = folders.filter((folder) => folder.state === 'paused' && folder.error === '').map((folder) => folder.id);
  if (active.length === 0 && resumable.length > 0) {
    return { type: 'action', label: 'Resume syncing', action: { kind: 'resume-all', ids: resumable }, enabled: running };
  }
  return { type: 'action', label: 'Pause all syncing', action: { kind: 'pause-all', ids: active }, enabled: running && active.length > 0 };
}

function folderState(folder: SyncFolderView): string {
  if (folder.mode === 'follow') return followedState(folder);
  if (needsAttention(folder)) return folder.error || 'Sync stopped by an error';
  switch (folder.state) {
    case 'scanning':
      return 'Scanning…';
    case 'syncing':
      return `Syncing, ${folder.pending} ${folder.pending === 1 ? 'file' : 'files'} left`;
    case 'paused':
      return 'Paused';
    default:
      return folder.conflict
        ? 'Synced, not published: another machine published its name'
        : `Up to date, ${folder.files} ${folder.files === 1 ? 'file' : 'files'}`;
  }
}

/** A followed folder's state line: checking and updating rather than scanning and syncing, and its local changes. */
function followedState(folder: SyncFolderView): string {
  if (needsAttention(folder)) return folder.error || 'Following stopped by an error';
  switch (folder.state) {
    case 'scanning':
      return 'Checking for a newer version…';
    case 'syncing':
      return 'Updating to a newer version…';
    case 'paused':
      return 'Paused';
    default:
      break;
  }
  if (folder.root === '') return 'Waiting for the first version';
  const changes = folder.local_changes.length;
  if (changes > 0) return `Up to date, sequence ${folder.seq}; ${changes} local ${changes === 1 ? 'change' : 'changes'} kept`;
  return `Up to date, sequence ${folder.seq}`;
}

/** The mark after a folder's name: a followed folder says so, with its state when that needs saying. */
function folderSuffix(folder: SyncFolderView): string {
  const state = needsAttention(folder)
    ? 'needs attention'
    : folder.state === 'paused'
      ? 'paused'
      : folder.conflict && folder.mode === 'sync'
        ? 'not published'
        : '';
  if (folder.mode === 'follow') return state ? ` (following, ${state})` : ' (following)';
  return state ? ` (${state})` : '';
}

function folderMenu(folder: SyncFolderView, origin: string | null): TrayMenuItem {
  return {
    type: 'submenu',
    label: `${folderName(folder.path)}${folderSuffix(folder)}`,
    items: [
      { type: 'status', label: folderState(folder) },
      ...(folder.mode === 'follow' ? [{ type: 'status' as const, label: `From ${followOrigin(folder)}` }] : []),
      { type: 'action', label: 'Open folder', action: { kind: 'open-folder', path: folder.path }, enabled: true },
      {
        type: 'action',
        label: 'Copy gateway link of the latest version',
        action: { kind: 'copy', text: origin !== null && folder.root !== '' ? `${origin}/ipfs/${folder.root}` : '' },
        enabled: origin !== null && folder.root !== '',
      },
      {
        type: 'action',
        label: 'Copy IPNS link',
        action: { kind: 'copy', text: origin !== null && folder.ipns_name !== '' ? `${origin}/ipns/${folder.ipns_name}` : '' },
        enabled: origin !== null && folder.ipns_name !== '',
      },
    ],
  };
}
