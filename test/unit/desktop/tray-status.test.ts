import { describe, expect, it } from 'vitest';
import type { ServiceStatus } from '../../../main/desktop/service-status.js';
import { folderName, TOOLTIP_MAX, trayIconState, trayStatusLine } from '../../../main/desktop/tray-status.js';
import { folderRow } from './shell-fixtures.js';

const running: ServiceStatus = { state: 'running' };

describe('trayIconState', () => {
  it('idle with no folders, or every folder synced', () => {
    expect(trayIconState(running, [])).toBe('idle');
    expect(trayIconState(running, [folderRow({ id: 'a' }), folderRow({ id: 'b', state: 'paused' })])).toBe('idle');
  });

  it('syncing while any folder scans or syncs', () => {
    expect(trayIconState(running, [folderRow({ id: 'a' }), folderRow({ id: 'b', state: 'scanning' })])).toBe('syncing');
    expect(trayIconState(running, [folderRow({ id: 'a', state: 'syncing', pending: 3 })])).toBe('syncing');
  });

  it('paused when every folder is paused', () => {
    expect(trayIconState(running, [folderRow({ id: 'a', state: 'paused' }), folderRow({ id: 'b', state: 'paused' })])).toBe('paused');
  });

  it('error when a folder is in error or was paused by one, above syncing', () => {
    expect(trayIconState(running, [folderRow({ id: 'a', state: 'syncing' }), folderRow({ id: 'b', state: 'error', error: 'permission denied' })])).toBe(
      'error',
    );
    expect(trayIconState(running, [folderRow({ id: 'a', state: 'paused', error: 'folder vanished' })])).toBe('error');
  });

  it('follows the service first: down is an error, starting is idle, stopped is paused', () => {
    const folders = [folderRow({ id: 'a', state: 'syncing' })];
    expect(trayIconState({ state: 'crashed', detail: 'exit 1' }, folders)).toBe('error');
    expect(trayIconState({ state: 'restarting' }, folders)).toBe('error');
    expect(trayIconState({ state: 'starting' }, folders)).toBe('idle');
    expect(trayIconState({ state: 'stopped' }, folders)).toBe('paused');
    expect(trayIconState(running, null)).toBe('idle');
  });
});

describe('trayStatusLine', () => {
  it('counts folders and files left while syncing', () => {
    const folders = [folderRow({ id: 'a', state: 'syncing', pending: 10 }), folderRow({ id: 'b', state: 'syncing', pending: 4 }), folderRow({ id: 'c' })];
    expect(trayStatusLine(running, folders)).toBe('Syncing 2 folders, 14 files left');
    expect(trayStatusLine(running, [folderRow({ id: 'a', state: 'syncing', pending: 1 })])).toBe('Syncing 1 folder, 1 file left');
    expect(trayStatusLine(running, [folderRow({ id: 'a', state: 'scanning' })])).toBe('Scanning 1 folder…');
  });

  it('counts followed folders apart from synced ones, and says when followed folders update', () => {
    const follow = (id: string, fields: Partial<Parameters<typeof folderRow>[0]> = {}) => folderRow({ id, mode: 'follow', source: '/ipns/k51x', ...fields });
    expect(trayStatusLine(running, [folderRow({ id: 'a' }), follow('b'), follow('c')])).toBe('Up to date: 1 folder synced, 2 folders followed');
    expect(trayStatusLine(running, [follow('b'), folderRow({ id: 'c', state: 'paused' })])).toBe('Up to date: 1 folder followed, 1 paused');
    expect(trayStatusLine(running, [follow('b', { state: 'syncing' })])).toBe('Updating 1 followed folder…');
    expect(trayIconState(running, [follow('b', { state: 'error', error: 'the source is offline' })])).toBe('error');
  });

  it('says what is wrong with the one folder in trouble, and how many when several are', () => {
    expect(trayStatusLine(running, [folderRow({ id: 'a', path: '/media/usb/Photos', state: 'paused', error: 'folder vanished' })])).toBe(
      'Photos needs attention: folder vanished',
    );
    const two = [folderRow({ id: 'a', state: 'error', error: 'x' }), folderRow({ id: 'b', state: 'error', error: 'y' })];
    expect(trayStatusLine(running, two)).toBe('2 folders need attention');
  });

  it('idle, paused, empty and the service states', () => {
    expect(trayStatusLine(running, [folderRow({ id: 'a' }), folderRow({ id: 'b' }), folderRow({ id: 'c', state: 'paused' })])).toBe(
      'Up to date: 2 folders synced, 1 paused',
    );
    expect(trayStatusLine(running, [folderRow({ id: 'a', state: 'paused' })])).toBe('Syncing paused (1 folder)');
    expect(trayStatusLine(running, [])).toBe('No folders synced yet');
    expect(trayStatusLine(running, null)).toBe('Pinfold is running');
    expect(trayStatusLine({ state: 'starting' }, null)).toBe('Pinfold is starting…');
    // The supervisor's details, as it words them.
    const gaveUp = 'The Pinfold service stopped 5 times within 5 minutes (last: it exited with code 3); it was not restarted again.';
    expect(trayStatusLine({ state: 'crashed', detail: gaveUp }, [])).toBe(gaveUp);
    expect(trayStatusLine({ state: 'crashed' }, [])).toBe('Pinfold stopped unexpectedly');
    expect(trayStatusLine({ state: 'restarting', detail: 'The Pinfold service exited with code 1; restarting in 1 s.' }, [])).toBe(
      'Pinfold stopped unexpectedly and is restarting…',
    );
    expect(trayStatusLine({ state: 'running', url: 'http://127.0.0.1:5080', recovered: true }, [])).toBe('No folders synced yet');
  });

  it('stays one line within the Windows tooltip limit', () => {
    const error = `disk I/O error\non line two ${'x'.repeat(300)}`;
    const line = trayStatusLine(running, [folderRow({ id: 'a', state: 'error', error })]);
    expect(line).not.toMatch(/\n/);
    expect(line.length).toBe(TOOLTIP_MAX);
    expect(line.endsWith('…')).toBe(true);
  });
});

describe('folderName', () => {
  it('takes the last part of a POSIX or Windows path', () => {
    expect(folderName('/home/me/Photos/')).toBe('Photos');
    expect(folderName('C:\\Users\\me\\Documents')).toBe('Documents');
    expect(folderName('/')).toBe('/');
  });
});
