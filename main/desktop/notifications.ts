import type { AccountUsage, SyncFolderView } from '../../shared/api-types.js';
import type { ServiceContent } from './folder-monitor.js';
import type { ServiceStatus } from './service-status.js';
import { folderName, needsAttention } from './tray-status.js';

/**
 * Which notifications to show, decided from the previous and the new state of the shell: only what
 * needs the user (a folder stopped by an error, a folder's first sync done, a plan limit reached, the
 * service back after a crash, the service given up after crashing). Every notification is a
 * transition, so a state that lasts is told once, and the first state seen (the app starting, a list
 * not known before) is told nothing.
 */
export interface ShellSnapshot {
  readonly service: ServiceStatus;
  readonly content: ServiceContent;
}

/** Where a click on the notification leads. */
export type NotificationTarget = { kind: 'window' } | { kind: 'sync-folder'; id: string };

export interface ShellNotification {
  /** Stable per cause, e.g. `folder-error:<id>`; the shell replaces an older one with the same id. */
  readonly id: string;
  readonly title: string;
  readonly body: string;
  readonly target: NotificationTarget;
}

const LIMIT_NAMES: Record<string, string> = {
  pinned_count: 'the number of pins',
  pinned_bytes: 'pinned storage',
  ingress: 'uploads this month',
  egress: 'downloads this month',
  ipns: 'the number of IPNS names',
};

/** The usage limits that are reached (used ≥ limit), by the stats name of the count. */
export function limitsReached(usage: AccountUsage): string[] {
  const pairs: Array<[string, number, number]> = [
    ['pinned_count', usage.pinned_count, usage.pinned_count_limit],
    ['pinned_bytes', usage.pinned_bytes, usage.pinned_bytes_limit],
    ['ingress', usage.ingress, usage.ingress_limit],
    ['egress', usage.egress, usage.egress_limit],
    ['ipns', usage.ipns, usage.ipns_limit],
  ];
  return pairs.filter(([, used, limit]) => Number.isFinite(used) && Number.isFinite(limit) && used >= limit).map(([name]) => name);
}

export function notificationsBetween(previous: ShellSnapshot | null, next: ShellSnapshot): ShellNotification[] {
  if (previous === null) return [];
  return [
    ...serviceNotifications(previous.service, next.service),
    ...folderNotifications(previous.content, next.content),
    ...limitNotifications(previous.content, next.content),
  ];
}

function serviceNotifications(previous: ServiceStatus, next: ServiceStatus): ShellNotification[] {
  // The supervisor marks the `running` after a restart (it comes after `restarting` and `starting`).
  if (next.state === 'running' && next.recovered === true && previous.state !== 'running') {
    return [
      {
        id: 'service-restarted',
        title: 'Pinfold restarted',
        body: 'The Pinfold service stopped unexpectedly and was started again. Your folders keep syncing.',
        target: { kind: 'window' },
      },
    ];
  }
  // Given up (crashes in a row, or a start that cannot succeed): nothing syncs until the user acts.
  if (next.state === 'crashed' && previous.state !== 'crashed') {
    return [
      {
        id: 'service-stopped',
        title: 'Pinfold stopped',
        body: `${(next.detail ?? 'The Pinfold service stopped unexpectedly.').replace(/[.\s]+$/, '')}. Your folders are not syncing; choose Start Pinfold again in the tray menu once the cause is fixed.`,
        target: { kind: 'window' },
      },
    ];
  }
  return [];
}

function folderNotifications(previous: ServiceContent, next: ServiceContent): ShellNotification[] {
  if (previous.folders === null || next.folders === null) return [];
  const before = new Map(previous.folders.map((folder) => [folder.id, folder]));
  const out: ShellNotification[] = [];
  for (const folder of next.folders) {
    const old = before.get(folder.id);
    if (needsAttention(folder) && (old === undefined || !needsAttention(old))) out.push(folderStopped(folder));
    else if (old !== undefined && old.root === '' && folder.root !== '' && !needsAttention(folder)) out.push(firstSyncDone(folder));
  }
  return out;
}

function folderStopped(folder: SyncFolderView): ShellNotification {
  const name = folderName(folder.path);
  return {
    id: `folder-error:${folder.id}`,
    title: `${name} stopped syncing`,
    body: `${(folder.error || 'An error stopped it').replace(/[.\s]+$/, '')}. Pinfold keeps the last synced version; fix the cause, then choose Retry in the Sync page.`,
    target: { kind: 'sync-folder', id: folder.id },
  };
}

function firstSyncDone(folder: SyncFolderView): ShellNotification {
  const name = folderName(folder.path);
  const files = `${folder.files} ${folder.files === 1 ? 'file' : 'files'}`;
  return {
    id: `folder-synced:${folder.id}`,
    title: `${name} is synced`,
    body:
      folder.ipns_name !== ''
        ? `${files} pinned and published under its IPNS name. Changes follow by themselves.`
        : `${files} pinned. Changes follow by themselves.`,
    target: { kind: 'sync-folder', id: folder.id },
  };
}

function limitNotifications(previous: ServiceContent, next: ServiceContent): ShellNotification[] {
  if (previous.usage === null || next.usage === null) return [];
  const before = new Set(limitsReached(previous.usage));
  return limitsReached(next.usage)
    .filter((name) => !before.has(name))
    .map((name) => ({
      id: `limit:${name}`,
      title: 'Plan limit reached',
      body: `Your plan's limit on ${LIMIT_NAMES[name] ?? name} is reached: new content that needs more is refused until you free some or change the plan.`,
      target: { kind: 'window' } as const,
    }));
}
