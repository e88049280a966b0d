// @vitest-environment jsdom
/**
 * A sync folder's page in the window against a scripted service: what it shows while the folder loads, a
 * folder the service does not know and one with no version yet, the service's refusal (and Retry), and a
 * page that follows `event: sync` (progress patched in place, a new root loading the folder and its
 * versions again, a removal said); saving its ignore patterns, its name made public, and Remove going
 * back to the list.
 */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deferred } from '../../helpers/deferred.js';
import { standInForDialogs } from './dialog-stand-in.js';
import { SYNC_FOLDER, SYNC_FOLDER_DETAIL, SYNC_VERSION } from './fixtures.js';
import { PAGE_LOAD, renderApp, requestsTo, serveSignedInWindow } from './render-app.js';
import { dataAnswer, errorAnswer, listAnswer, startScriptedService, type ScriptedAnswer, type ScriptedService } from './scripted-service.js';

const DETAIL = 'GET /api/v0/sync/detail';
const VERSIONS = 'GET /api/v0/sync/versions';
const IGNORE = 'POST /api/v0/sync/ignore';
const NEW_ROOT = 'bafybeihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku';

let service: ScriptedService;
beforeEach(async () => {
  standInForDialogs();
  service = await startScriptedService();
  serveSignedInWindow(service);
  service.route('GET /api/v0/service', errorAnswer('permission', 'the service is the owner’s'));
  service.route(DETAIL, dataAnswer(SYNC_FOLDER_DETAIL));
  service.route(VERSIONS, listAnswer([SYNC_VERSION]));
});
afterEach(async () => {
  cleanup();
  await service.close();
});

const folderHeading = () => screen.findByRole('heading', { level: 1, name: 'site' }, PAGE_LOAD);

describe('Sync folder page', () => {
  it('says it is loading while the folder is on its way, then shows it with its versions', async () => {
    const held = deferred<ScriptedAnswer>();
    service.route(DETAIL, () => held.promise);
    renderApp(service, '/sync/f1');
    await screen.findByText('Loading…', {}, PAGE_LOAD);
    expect(screen.queryByRole('heading', { level: 1, name: 'site' })).toBeNull();

    held.resolve(dataAnswer(SYNC_FOLDER_DETAIL));
    await folderHeading();
    expect(screen.getByTestId('folder-state').textContent).toContain('Up to date');
    const versions = screen.getByRole('table', { name: 'Versions' });
    await within(versions).findByText('Current');
  });

  it('says so of a folder the service does not know, and of one with no version yet', async () => {
    service.route(DETAIL, errorAnswer('not_found', 'no sync folder f9'));
    renderApp(service, '/sync/f9');
    await screen.findByText('This folder is not synced', {}, PAGE_LOAD);
    expect(screen.getByText('There is no sync folder with the id f9.')).toBeTruthy();
    cleanup();

    service.route(DETAIL, dataAnswer({ ...SYNC_FOLDER_DETAIL, root: '', ipns_name: '', state: 'scanning' }));
    service.route(VERSIONS, listAnswer([]));
    renderApp(service, '/sync/f1');
    await folderHeading();
    await within(screen.getByRole('table', { name: 'Versions' })).findByText('No versions yet');
  });

  it('says why the folder could not be loaded, and Retry loads it', async () => {
    service.route(DETAIL, errorAnswer('internal', 'the database is locked'));
    renderApp(service, '/sync/f1');
    await screen.findByText('The service failed (500): the database is locked.', {}, PAGE_LOAD);

    service.route(DETAIL, dataAnswer(SYNC_FOLDER_DETAIL));
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await folderHeading();
    expect(screen.queryByText(/the database is locked/)).toBeNull();
  });

  it('follows event: sync: progress is patched in place, a new root loads the folder and its versions again, a removal is said', async () => {
    renderApp(service, '/sync/f1');
    await folderHeading();
    await within(screen.getByRole('table', { name: 'Versions' })).findByText('Current');

    await service.sendEvent('sync', { ...SYNC_FOLDER, current_file: 'docs/a.txt' });
    await waitFor(() => expect(screen.getByTestId('current-file').textContent).toBe('Now: docs/a.txt'));
    expect(requestsTo(service, DETAIL)).toBe(1);
    expect(requestsTo(service, VERSIONS)).toBe(1);

    service.route(DETAIL, dataAnswer({ ...SYNC_FOLDER_DETAIL, root: NEW_ROOT, files: 4 }));
    service.route(VERSIONS, listAnswer([{ ...SYNC_VERSION, root: NEW_ROOT, created_at: SYNC_VERSION.created_at + 60 }, SYNC_VERSION]));
    await service.sendEvent('sync', { ...SYNC_FOLDER, root: NEW_ROOT, files: 4 });
    await waitFor(() => expect(requestsTo(service, DETAIL)).toBe(2));
    await waitFor(() => expect(within(screen.getByRole('table', { name: 'Versions' })).getAllByRole('row')).toHaveLength(3));
    expect(screen.getByTestId('folder-content').textContent).toContain('4 files');

    await service.sendEvent('sync', { id: SYNC_FOLDER.id, removed: true });
    await screen.findByText('It was removed while this page was open. Its last root stays pinned.');
  });

  it('saves the ignore patterns and loads the folder again; a refusal stays beside the field', async () => {
    service.route(IGNORE, errorAnswer('bad_input', 'ignore: too many patterns', { param: 'ignore' }));
    renderApp(service, '/sync/f1');
    await folderHeading();
    fireEvent.click(screen.getByRole('button', { name: 'Edit patterns' }));
    const field = screen.getByLabelText('Patterns of this folder', { exact: false });
    fireEvent.change(field, { target: { value: '*.log\nbuild/' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save patterns' }));
    await screen.findByText(/too many patterns/);
    expect(requestsTo(service, DETAIL)).toBe(1);

    service.route(IGNORE, dataAnswer(null));
    service.route(DETAIL, dataAnswer({ ...SYNC_FOLDER_DETAIL, ignore: ['*.log', 'build/'] }));
    fireEvent.click(screen.getByRole('button', { name: 'Save patterns' }));
    await screen.findByText('Ignore patterns of site saved: the folder is scanned again with them.');
    const saved = await screen.findByRole('list', { name: 'Patterns of this folder' });
    await waitFor(() =>
      expect(
        within(saved)
          .getAllByRole('listitem')
          .map((item) => item.textContent),
      ).toEqual(['*.log', 'build/']),
    );
    expect(JSON.parse(service.seen.find((seen) => seen.url.startsWith('/api/v0/sync/ignore'))?.body ?? '{}')).toEqual({ ignore: ['*.log', 'build/'] });
    expect(requestsTo(service, DETAIL)).toBe(2);
  });

  it("makes the folder's name public after the confirmation: the page says so without loading the folder again", async () => {
    service.route(
      'POST /api/v0/name/public',
      dataAnswer({ name: SYNC_FOLDER.ipns_name, value: SYNC_FOLDER.root, alias: '', created_at: 1, publish_at: 1, public: true }),
    );
    renderApp(service, '/sync/f1');
    await folderHeading();
    const toggle = within(screen.getByTestId('folder-public')).getByRole('switch', { name: 'Public on the IPFS network: site' });
    expect(toggle.getAttribute('aria-checked')).toBe('false');
    fireEvent.click(toggle);
    const dialog = screen.getByRole('dialog', { name: 'Make site public?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Make public' }));
    await waitFor(() => expect(toggle.getAttribute('aria-checked')).toBe('true'));
    expect(within(screen.getByTestId('folder-public')).getByText('Public')).toBeTruthy();
    expect(requestsTo(service, DETAIL)).toBe(1);
  });

  it('Remove stops syncing after the confirmation and goes back to the list', async () => {
    service.route('GET /api/v0/sync', listAnswer([]));
    renderApp(service, '/sync/f1');
    await folderHeading();
    fireEvent.click(screen.getByRole('button', { name: 'Remove site' }));
    const dialog = screen.getByRole('dialog', { name: 'Stop syncing site?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await screen.findByRole('heading', { level: 1, name: 'Sync' });
    await screen.findByText('site is no longer synced. Its last root stays pinned.');
    expect(requestsTo(service, 'POST /api/v0/sync/rm')).toBe(1);
  });
});
