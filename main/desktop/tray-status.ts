import type { SyncFolderView } from '../../shared/api-types.js';
import type { ServiceStatus } from './service-status.js';

/** The four faces of the tray icon. */
export type TrayIconState = 'idle' | 'syncing' | 'paused' | 'error';
export const TRAY_ICON_STATES: readonly TrayIconState[] = ['idle', 'syncing', 'paused', 'error'];

/** Windows cuts tray tooltips at 127 characters; one line everywhere. */
export const TOOLTIP_MAX = 127;

/** A folder that needs the user: in error, or paused by an error (its drive or permission gone). */
export function needsAttention(folder: SyncFolderView): boolean {
  return folder.state === 'error' || (folder.state === 'paused' && folder.error !== '');
}

function isBusy(folder: SyncFolderView): boolean {
  return folder.state === 'scanning' || folder.state === 'syncing';
}

/** The folder's name as people know it: the last part of its path (either separator). */
export function folderName(path: string): string {
  const parts = path.split(/[\\/]+/).filter((part) => part !== '');
  return parts[parts.length - 1] ?? path;
}

/** Where a followed folder comes from: the gateway's host when its source is a gateway URL, else its name shortened. */
export function followOrigin(folder: Pick<SyncFolderView, 'source' | 'ipns_name'>): string {
  if (/^https?:\/\//i.test(folder.source)) {
    try {
      return new URL(folder.source).host;
    } catch {
      // Not a URL after all: the name below.
    }
  }
  const name = folder.ipns_name || folder.source.replace(/^\/ipns\//, '');
  return name.length > 17 ? `${name.slice(0, 10)}…${name.slice(-6)}` : name;
}

/**
 * Which icon the tray shows. A service that is down is an error whatever the folders say; one that is
 * starting shows idle (it will say more in a moment); a folder in trouble outranks one that syncs.
 */
export function trayIconState(service: ServiceStatus, folders: readonly SyncFolderView[] | null): TrayIconState {
  if (service.state === 'crashed' || service.state === 'restarting') return 'error';
  if (service.state === 'stopped') return 'paused';
  if (service.state === 'starting' || folders === null) return 'idle';
  if (folders.some(needsAttention)) return 'error';
  if (folders.some(isBusy)) return 'syncing';
  if (folders.length > 0 && folders.every((folder) => folder.state === 'paused')) return 'paused';
  return 'idle';
}

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

/** The tray's one-line status (tooltip and the menu's status line), e.g. "Syncing 2 folders, 14 files left". */
export function trayStatusLine(service: ServiceStatus, folders: readonly SyncFolderView[] | null): string {
  return clip(statusText(service, folders));
}

function statusText(service: ServiceStatus, folders: readonly SyncFolderView[] | null): string {
  switch (service.state) {
    case 'starting':
      return 'Pinfold is starting…';
    case 'restarting':
      return 'Pinfold stopped unexpectedly and is restarting…';
    case 'crashed':
      // The supervisor's detail is a whole sentence that starts with the service and says why.
      return service.detail ?? 'Pinfold stopped unexpectedly';
    case 'stopped':
      return 'Pinfold is stopped';
    case 'running':
      break;
  }
  if (folders === null) return 'Pinfold is running';
  const troubled = folders.filter(needsAttention);
  if (troubled.length === 1) {
    const [folder] = troubled as [SyncFolderView];
    return `${folderName(folder.path)} needs attention: ${folder.error || 'sync stopped'}`;
  }
  if (troubled.length > 1) return `${plural(troubled.length, 'folder')} need attention`;
  const busy = folders.filter(isBusy);
  if (busy.length > 0) {
    const left = busy.reduce((sum, folder) => sum + folder.pending, 0);
    const scanningOnly = busy.every((folder) => folder.state === 'scanning') && left === 0;
    if (busy.every((folder) => folder.mode === 'follow')) return `Updating ${plural(busy.length, 'followed folder')}…`;
    if (scanningOnly) return `Scanning ${plural(busy.length, 'folder')}…`;
    return `Syncing ${plural(busy.length, 'folder')}, ${plural(left, 'file')} left`;
  }
  if (folders.length === 0) return 'No folders synced yet';
  if (folders.every((folder) => folder.state === 'paused')) return `Syncing paused (${plural(folders.length, 'folder')})`;
  const paused = folders.filter((folder) => folder.state === 'paused').length;
  const followed = folders.filter((folder) => folder.state !== 'paused' && folder.mode === 'follow').length;
  const synced = folders.length - paused - followed;
  const parts = [
    ...(synced > 0 || followed === 0 ? [`${plural(synced, 'folder')} synced`] : []),
    ...(followed > 0 ? [`${plural(followed, 'folder')} followed`] : []),
    ...(paused > 0 ? [`${paused} paused`] : []),
  ];
  return `Up to date: ${parts.join(', ')}`;
}

function clip(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= TOOLTIP_MAX ? line : `${line.slice(0, TOOLTIP_MAX - 1)}…`;
}
