// @vitest-environment jsdom
/**
 * The Files page in the window against a scripted service: what it offers while the upload settings load,
 * without recent uploads, and when the service refuses the settings; the recent uploads' pin states
 * looked up when the page opens (and written back to this browser's list), following `event: pin` without
 * being asked again (over a lookup still on its way too: pin-records.test.ts), and "Pin…" through the
 * request cache. The uploads themselves (XMLHttpRequest to the page's own origin, the folder worker) are
 * the e2e walk's: test/e2e/files.test.ts.
 */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseRecentUploads, recentUploadsKey, serializeRecentUploads, type RecentUpload } from '../../../renderer/lib/recent-uploads.js';
import type { PinRecord, UploadSettings } from '../../../shared/api-types.js';
import { deferred } from '../../helpers/deferred.js';
import { standInForDialogs } from './dialog-stand-in.js';
import { PAGE_LOAD, PIN, renderApp, requestsTo, serveSignedInWindow } from './render-app.js';
import { dataAnswer, errorAnswer, startScriptedService, type ScriptedAnswer, type ScriptedService } from './scripted-service.js';

const SETTINGS_PATH = 'GET /api/v0/upload/settings';
const SETTINGS: UploadSettings = { account_uuid: 'account-1', cid_profile: 'unixfs-v1-2025', public_gateway: false };

const REPORT: RecentUpload = { cid: PIN.cid, name: 'report.pdf', kind: 'file', size: 2048, files: 1, uploadedAt: 1_700_000_000, pinStatus: 'unpinned' };
const PHOTOS_CID = 'bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi';
const PHOTOS: RecentUpload = { cid: PHOTOS_CID, name: 'photos', kind: 'folder', size: 4096, files: 3, uploadedAt: 1_700_000_100, pinStatus: 'pinned' };

const lookup = (cid: string) => `GET /api/v0/pin/${cid}`;
const NOT_FOUND = errorAnswer('not_found', 'no pin of this CID');

let service: ScriptedService;
beforeEach(async () => {
  standInForDialogs();
  localStorage.clear();
  service = await startScriptedService();
  serveSignedInWindow(service);
  service.route(SETTINGS_PATH, dataAnswer(SETTINGS));
});
afterEach(async () => {
  cleanup();
  await service.close();
});

const keep = (entries: RecentUpload[]) => localStorage.setItem(recentUploadsKey(SETTINGS.account_uuid), serializeRecentUploads(entries));
const kept = () => parseRecentUploads(localStorage.getItem(recentUploadsKey(SETTINGS.account_uuid)));
const recentTable = () => screen.findByRole('table', { name: 'Recent uploads' }, PAGE_LOAD);
const chooseFiles = () => screen.findByRole('button', { name: 'Choose files…' }, PAGE_LOAD);

/** The row of an upload, once shown. */
async function rowOf(name: string): Promise<HTMLElement> {
  const table = await recentTable();
  const cell = await within(table).findByText(name, {}, PAGE_LOAD);
  const row = cell.closest('tr');
  if (!row) throw new Error(`no row holds ${name}`);
  return row;
}

/** Waits until the row shows `state` as its pin state (in the Pin column, and under the name at narrow widths). */
async function pinStateShown(name: string, state: string): Promise<void> {
  const row = await rowOf(name);
  await waitFor(() => expect(within(row).queryAllByText(state, { exact: true }).length).toBeGreaterThan(0), PAGE_LOAD);
}

describe('Files page', () => {
  it('offers no upload while the settings load, then the pickers and this browser’s recent uploads', async () => {
    keep([REPORT]);
    service.route(lookup(REPORT.cid), NOT_FOUND);
    const held = deferred<ScriptedAnswer>();
    service.route(SETTINGS_PATH, () => held.promise);
    renderApp(service, '/files');
    expect((await chooseFiles()).hasAttribute('disabled')).toBe(true);
    expect(within(await recentTable()).queryByText('report.pdf')).toBeNull();

    held.resolve(dataAnswer(SETTINGS));
    await waitFor(async () => expect((await chooseFiles()).hasAttribute('disabled')).toBe(false));
    await pinStateShown('report.pdf', 'Not pinned');
  });

  it('tells a browser without uploads what to do first', async () => {
    renderApp(service, '/files');
    const table = await recentTable();
    await waitFor(async () => expect((await chooseFiles()).hasAttribute('disabled')).toBe(false));
    expect(within(table).getByText('Nothing uploaded from this browser yet')).toBeTruthy();
  });

  it('says why uploads are not available, and Retry loads the settings', async () => {
    service.route(SETTINGS_PATH, errorAnswer('internal', 'the settings are unreadable'));
    renderApp(service, '/files');
    await screen.findByText('Uploads are not available: The service failed (500): the settings are unreadable.', {}, PAGE_LOAD);
    expect((await chooseFiles()).hasAttribute('disabled')).toBe(true);

    service.route(SETTINGS_PATH, dataAnswer(SETTINGS));
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(async () => expect((await chooseFiles()).hasAttribute('disabled')).toBe(false));
    expect(screen.queryByText(/Uploads are not available/)).toBeNull();
  });

  it('looks up the pin states when it opens, and keeps what the service said in this browser’s list', async () => {
    keep([REPORT, PHOTOS]);
    service.route(lookup(REPORT.cid), dataAnswer(PIN));
    service.route(lookup(PHOTOS_CID), NOT_FOUND);
    renderApp(service, '/files');
    await pinStateShown('report.pdf', 'Pinned');
    await pinStateShown('photos', 'Not pinned');
    await waitFor(() => expect(kept().map((entry) => entry.pinStatus)).toEqual(['pinned', 'unpinned']));
  });

  it('follows event: pin without asking again: pinned elsewhere, then unpinned and removed', async () => {
    keep([REPORT]);
    service.route(lookup(REPORT.cid), NOT_FOUND);
    renderApp(service, '/files');
    await pinStateShown('report.pdf', 'Not pinned');

    await service.sendEvent('pin', PIN);
    await pinStateShown('report.pdf', 'Pinned');
    await service.sendEvent('pin', { ...PIN, status: 'unpinning' });
    await pinStateShown('report.pdf', 'Unpinning');
    await service.sendEvent('pin', { cid: PIN.cid, removed: true });
    await pinStateShown('report.pdf', 'Not pinned');
    expect(requestsTo(service, lookup(REPORT.cid))).toBe(1);
  });

  it('pins an upload with Pin… under the name given, and shows it pinned', async () => {
    keep([REPORT]);
    service.route(lookup(REPORT.cid), NOT_FOUND);
    service.route('POST /api/v0/pin/add', dataAnswer(null));
    renderApp(service, '/files');
    await pinStateShown('report.pdf', 'Not pinned');

    fireEvent.click(within(await rowOf('report.pdf')).getByRole('button', { name: 'Pin report.pdf…' }));
    const dialog = screen.getByRole('dialog', { name: 'Pin this upload?' });
    fireEvent.change(within(dialog).getByLabelText('Pin name', { exact: false }), { target: { value: 'Q3 report' } });
    service.route(lookup(REPORT.cid), dataAnswer({ ...PIN, name: 'Q3 report' } satisfies PinRecord));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Pin' }));
    await pinStateShown('report.pdf', 'Pinned');
    expect(dialog.hasAttribute('open')).toBe(false);
    const added = service.seen.find((seen) => seen.method === 'POST' && seen.url.startsWith('/api/v0/pin/add'));
    expect(new URL(added?.url ?? '', service.url).searchParams.get('name')).toBe('Q3 report');
  });

  it('keeps the dialog open with the reason when the service refuses the pin', async () => {
    keep([REPORT]);
    service.route(lookup(REPORT.cid), NOT_FOUND);
    service.route('POST /api/v0/pin/add', errorAnswer('plan_limit', 'the plan allows no more pins', { limit: 'pinned_count' }));
    renderApp(service, '/files');
    await pinStateShown('report.pdf', 'Not pinned');

    fireEvent.click(within(await rowOf('report.pdf')).getByRole('button', { name: 'Pin report.pdf…' }));
    const dialog = screen.getByRole('dialog', { name: 'Pin this upload?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Pin' }));
    await within(dialog).findByText("Your plan's limit on pins is reached. Unpin something or move to a larger plan.");
    expect(dialog.hasAttribute('open')).toBe(true);
    await pinStateShown('report.pdf', 'Not pinned');
  });
});
