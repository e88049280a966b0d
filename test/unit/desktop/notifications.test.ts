import { describe, expect, it } from 'vitest';
import type { SyncFolderView } from '../../../shared/api-types.js';
import type { ServiceContent } from '../../../main/desktop/folder-monitor.js';
import { limitsReached, notificationsBetween, type ShellSnapshot } from '../../../main/desktop/notifications.js';
import type { ServiceStatus } from '../../../main/desktop/service-status.js';
import { folderRow, usage } from './shell-fixtures.js';

const running: ServiceStatus = { state: 'running' };

function snapshot(folders: SyncFolderView[] | null, service: ServiceStatus = running, content: Partial<ServiceContent> = {}): ShellSnapshot {
  return { service, content: { folders, usage: null, ...content } };
}

/** Feeds the snapshots in order, as the shell does, and collects every notification's id. */
function run(...snapshots: ShellSnapshot[]): string[] {
  let previous: ShellSnapshot | null = null;
  const ids: string[] = [];
  for (const next of snapshots) {
    ids.push(...notificationsBetween(previous, next).map((n) => n.id));
    previous = next;
  }
  return ids;
}

describe('notificationsBetween', () => {
  it('says nothing at start, whatever the first state holds', () => {
    const troubled = [folderRow({ id: 'a', state: 'error', error: 'permission denied' }), folderRow({ id: 'b', root: '' })];
    expect(run(snapshot(troubled, { state: 'starting' }))).toEqual([]);
    expect(run(snapshot(null, { state: 'starting' }), snapshot(null), snapshot(troubled))).toEqual([]);
    expect(run(snapshot(null), snapshot([], running, { usage: usage({ pinned_count: 100, pinned_count_limit: 100 }) }))).toEqual([]);
  });

  it('a folder paused by an error, once, with the reason and a way to its page', () => {
    const before = snapshot([folderRow({ id: 'a', path: '/media/usb/Photos' })]);
    const gone = snapshot([folderRow({ id: 'a', path: '/media/usb/Photos', state: 'paused', error: 'folder vanished: /media/usb/Photos.' })]);
    const [notice, ...rest] = notificationsBetween(before, gone);
    expect(rest).toEqual([]);
    expect(notice).toEqual({
      id: 'folder-error:a',
      title: 'Photos stopped syncing',
      body: 'folder vanished: /media/usb/Photos. Pinfold keeps the last synced version; fix the cause, then choose Retry in the Sync page.',
      target: { kind: 'sync-folder', id: 'a' },
    });
    // Still in trouble, even with another message: not again. Fixed, then broken again: again.
    const other = snapshot([folderRow({ id: 'a', state: 'error', error: 'permission denied' })]);
    expect(run(before, gone, gone, other, before, other)).toEqual(['folder-error:a', 'folder-error:a']);
  });

  it('a folder added while running that fails at once is told', () => {
    expect(run(snapshot([]), snapshot([folderRow({ id: 'n', state: 'error', error: 'EACCES' })]))).toEqual(['folder-error:n']);
  });

  it("a folder's first sync done, once; later syncs say nothing", () => {
    const adding = snapshot([folderRow({ id: 'a', root: '', ipns_name: '', state: 'scanning', last_synced_at: 0 })]);
    const done = snapshot([folderRow({ id: 'a', files: 1 })]);
    const [notice] = notificationsBetween(adding, done);
    expect(notice).toMatchObject({
      id: 'folder-synced:a',
      title: 'a is synced',
      body: '1 file pinned and published under its IPNS name. Changes follow by themselves.',
    });
    const later = snapshot([folderRow({ id: 'a', root: 'bafkqaaa', state: 'syncing' })]);
    expect(run(adding, done, later, done)).toEqual(['folder-synced:a']);
    // Without IPNS the body says so.
    const plain = notificationsBetween(adding, snapshot([folderRow({ id: 'a', ipns_name: '' })]));
    expect(plain[0]?.body).toBe('3 files pinned. Changes follow by themselves.');
  });

  it('a first scan that ends in an error is the error, not a success', () => {
    const adding = snapshot([folderRow({ id: 'a', root: '', state: 'scanning' })]);
    expect(run(adding, snapshot([folderRow({ id: 'a', root: 'bafkqaaa', state: 'error', error: 'disk full' })]))).toEqual(['folder-error:a']);
  });

  it('the service back after a crash, once (the running the supervisor marks recovered); a normal start or stop says nothing', () => {
    const folders = [folderRow({ id: 'a' })];
    const url = 'http://127.0.0.1:5080';
    // The supervisor's order: restarting, then starting again, then running marked recovered.
    expect(
      run(
        snapshot(folders, { state: 'starting' }),
        snapshot(folders, { state: 'running', url }),
        snapshot(folders, { state: 'restarting', detail: 'The Pinfold service exited with code 1; restarting in 1 s.' }),
        snapshot(folders, { state: 'starting' }),
        snapshot(folders, { state: 'running', url, recovered: true }),
        snapshot(folders, { state: 'running', url, recovered: true }),
        snapshot(folders, { state: 'stopped' }),
      ),
    ).toEqual(['service-restarted']);
    // A start by hand after a clean stop is no recovery.
    expect(run(snapshot(folders, { state: 'stopped' }), snapshot(folders, { state: 'starting' }), snapshot(folders, { state: 'running', url }))).toEqual([]);
  });

  it('the service given up (crashes in a row, or a start that cannot succeed): once, with the reason', () => {
    const folders = [folderRow({ id: 'a' })];
    const detail = 'The Pinfold service stopped 5 times within 5 minutes (last: it exited with code 1); it was not restarted again.';
    const down = snapshot(folders, { state: 'crashed', detail });
    const [notice, ...rest] = notificationsBetween(snapshot(folders, { state: 'starting' }), down);
    expect(rest).toEqual([]);
    expect(notice).toEqual({
      id: 'service-stopped',
      title: 'Pinfold stopped',
      body: `${detail.slice(0, -1)}. Your folders are not syncing; choose Start Pinfold again in the tray menu once the cause is fixed.`,
      target: { kind: 'window' },
    });
    expect(run(snapshot(folders), snapshot(folders, { state: 'restarting' }), snapshot(folders, { state: 'starting' }), down, down)).toEqual([
      'service-stopped',
    ]);
    // A restart on its way is not a stop: the notification waits for the supervisor to give up.
    expect(run(snapshot(folders), snapshot(folders, { state: 'restarting' }), snapshot(folders, { state: 'starting' }))).toEqual([]);
  });

  it('changes made while the service was down are told once it is back', () => {
    const up = snapshot([folderRow({ id: 'a' })]);
    const down = snapshot([folderRow({ id: 'a' })], { state: 'restarting' });
    const back = snapshot([folderRow({ id: 'a', state: 'error', error: 'database is locked' })], { state: 'running', recovered: true });
    expect(run(up, down, back)).toEqual(['service-restarted', 'folder-error:a']);
  });

  it('a plan limit when it is reached, once per limit', () => {
    const below = snapshot([], running, { usage: usage({ pinned_bytes: 10, pinned_bytes_limit: 100, ipns: 2, ipns_limit: 3 }) });
    const bytesFull = snapshot([], running, { usage: usage({ pinned_bytes: 100, pinned_bytes_limit: 100, ipns: 2, ipns_limit: 3 }) });
    const bothFull = snapshot([], running, { usage: usage({ pinned_bytes: 100, pinned_bytes_limit: 100, ipns: 3, ipns_limit: 3 }) });
    const [notice] = notificationsBetween(below, bytesFull);
    expect(notice).toMatchObject({ id: 'limit:pinned_bytes', title: 'Plan limit reached', target: { kind: 'window' } });
    expect(notice?.body).toContain('pinned storage');
    expect(run(below, bytesFull, bytesFull, bothFull, bothFull)).toEqual(['limit:pinned_bytes', 'limit:ipns']);
  });
});

describe('limitsReached', () => {
  it('names each count at or over its limit; an unlimited plan never', () => {
    expect(limitsReached(usage())).toEqual([]);
    expect(limitsReached(usage({ pinned_count: 100, pinned_count_limit: 100, egress: 6, egress_limit: 5 }))).toEqual(['pinned_count', 'egress']);
  });
});
