// @vitest-environment jsdom
/**
 * The Sync page in the window (a browser: no desktop bridge) against a scripted service: what it shows
 * while the folders load, with none yet, for another account, when the service refuses the list (and
 * Retry), and rows that follow `event: sync` (progress patched where it stands, a new folder first, a
 * removed one gone, the list not asked again); Pause in a row, and Follow a folder with the service's
 * refusal beside the field it names.
 */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SyncFolderView } from '../../../shared/api-types.js';
import { deferred } from '../../helpers/deferred.js';
import { standInForDialogs } from './dialog-stand-in.js';
import { SYNC_FOLDER } from './fixtures.js';
import { PAGE_LOAD, renderApp, requestsTo, serveSignedInWindow } from './render-app.js';
import { dataAnswer, errorAnswer, listAnswer, startScriptedService, type ScriptedAnswer, type ScriptedService } from './scripted-service.js';

const LIST = 'GET /api/v0/sync';
const PAUSE = 'POST /api/v0/sync/pause';
const FOLLOW = 'POST /api/v0/sync/follow';

const OTHER: SyncFolderView = { ...SYNC_FOLDER, id: 'f2', path: '/home/me/photos', ipns_name: '', root: '', state: 'scanning', files: 0, bytes: 0 };

let service: ScriptedService;
beforeEach(async () => {
  standInForDialogs();
  service = await startScriptedService();
  serveSignedInWindow(service);
  // The service's facts are the owner's help only (the data folder of the command): not needed here.
  service.route('GET /api/v0/service', errorAnswer('permission', 'the service is the owner’s'));
});
afterEach(async () => {
  cleanup();
  await service.close();
});

const foldersTable = () => screen.findByRole('table', { name: 'Sync folders' }, PAGE_LOAD);
const rowOf = (table: HTMLElement, name: string) => within(table).getByRole('link', { name }).closest('tr') as HTMLElement;

describe('Sync page', () => {
  it('says it is loading while the folders are on their way, then shows them', async () => {
    const held = deferred<ScriptedAnswer>();
    service.route(LIST, () => held.promise);
    renderApp(service, '/sync');
    const table = await foldersTable();
    await within(table).findByText('Loading…');
    expect(within(table).queryByText('No folders are synced yet')).toBeNull();

    held.resolve(listAnswer([SYNC_FOLDER]));
    await within(table).findByRole('link', { name: 'site' });
    expect(within(table).getByText('Up to date')).toBeTruthy();
    expect(within(table).queryByText('Loading…')).toBeNull();
  });

  it('shows an owner without folders how to add one from a browser', async () => {
    service.route(LIST, listAnswer([]));
    renderApp(service, '/sync');
    const table = await foldersTable();
    await within(table).findByText('No folders are synced yet');
    const adding = screen.getByRole('region', { name: 'Add a folder' });
    expect(within(adding).getByLabelText('Folder path', { exact: false })).toBeTruthy();
    expect(within(adding).getByTestId('sync-add-command').textContent).toContain('pinfold');
  });

  it('tells another account that sync is the owner’s', async () => {
    service.route(LIST, errorAnswer('permission', 'sync is the owner’s'));
    renderApp(service, '/sync');
    await screen.findByText('Sync is for the owner of this Pinfold', {}, PAGE_LOAD);
    expect(screen.queryByRole('table', { name: 'Sync folders' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Add folder…' })).toBeNull();
  });

  it('says why the folders could not be loaded, and Retry loads them', async () => {
    service.route(LIST, errorAnswer('internal', 'the database is locked'));
    renderApp(service, '/sync');
    const table = await foldersTable();
    await within(table).findByText('The service failed (500): the database is locked.');

    service.route(LIST, listAnswer([SYNC_FOLDER]));
    fireEvent.click(within(table).getByRole('button', { name: 'Retry' }));
    await within(table).findByRole('link', { name: 'site' });
    expect(within(table).queryByText(/the database is locked/)).toBeNull();
  });

  it('follows event: sync: progress patched in its row, a new folder first, a removed one gone, the list not asked again', async () => {
    service.route(LIST, listAnswer([SYNC_FOLDER]));
    renderApp(service, '/sync');
    const table = await foldersTable();
    await within(table).findByText('Up to date');

    await service.sendEvent('sync', { ...SYNC_FOLDER, state: 'syncing', files_done: 1, pending: 2, bytes_done: 1024, bytes_pending: 1024 });
    await within(table).findByText('Syncing');
    expect(within(rowOf(table, 'site')).getAllByText('1 of 3 files · 1 KiB of 2 KiB').length).toBeGreaterThan(0);

    await service.sendEvent('sync', OTHER);
    await within(table).findByRole('link', { name: 'photos' });
    expect(
      within(table)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['photos', 'site']);

    await service.sendEvent('sync', { id: SYNC_FOLDER.id, removed: true });
    await waitFor(() => expect(within(table).queryByRole('link', { name: 'site' })).toBeNull());
    expect(requestsTo(service, LIST)).toBe(1);
  });

  it('Pause runs on its row: a refusal is said in the row, a success loads the folders again', async () => {
    service.route(LIST, listAnswer([SYNC_FOLDER]));
    service.route(PAUSE, errorAnswer('internal', 'the watcher is stuck'));
    renderApp(service, '/sync');
    const table = await foldersTable();
    fireEvent.click(await within(table).findByRole('button', { name: 'Pause site' }));
    await within(rowOf(table, 'site')).findByText('The service failed (500): the watcher is stuck.');
    expect(requestsTo(service, LIST)).toBe(1);

    service.route(PAUSE, dataAnswer(null));
    service.route(LIST, listAnswer([{ ...SYNC_FOLDER, state: 'paused' }]));
    fireEvent.click(within(table).getByRole('button', { name: 'Pause site' }));
    await within(table).findByRole('button', { name: 'Resume site' });
    expect(within(table).queryByText(/the watcher is stuck/)).toBeNull();
    expect(requestsTo(service, LIST)).toBe(2);
  });

  it('Follow a folder: the refusal goes beside the field it names; a success closes the dialog and adds the row', async () => {
    service.route(LIST, listAnswer([]));
    service.route(FOLLOW, errorAnswer('bad_input', 'path: the folder is inside a synced folder', { param: 'path' }));
    renderApp(service, '/sync');
    await within(await foldersTable()).findByText('No folders are synced yet');
    fireEvent.click(screen.getByRole('button', { name: 'Follow a folder' }));
    const dialog = await screen.findByRole('dialog', { name: 'Follow a folder' });
    fireEvent.change(within(dialog).getByLabelText('IPNS name to follow', { exact: false }), { target: { value: SYNC_FOLDER.ipns_name } });
    const path = within(dialog).getByLabelText('Folder on this computer', { exact: false });
    fireEvent.change(path, { target: { value: '/home/me/site/copy' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Follow' }));
    await within(dialog).findByText('The folder is inside a synced folder.');
    expect(path.getAttribute('aria-invalid')).toBe('true');

    const followed: SyncFolderView = { ...OTHER, id: 'f3', path: '/home/me/copy', mode: 'follow', source: `/ipns/${SYNC_FOLDER.ipns_name}` };
    service.route(FOLLOW, dataAnswer(followed));
    fireEvent.change(path, { target: { value: '/home/me/copy' } });
    expect(within(dialog).queryByText('The folder is inside a synced folder.')).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Follow' }));
    const table = await foldersTable();
    await within(table).findByRole('link', { name: 'copy' });
    expect(within(table).getByTestId('following-tag')).toBeTruthy();
    expect(dialog.hasAttribute('open')).toBe(false);
    expect(requestsTo(service, LIST)).toBe(1);
  });
});
