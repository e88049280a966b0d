/**
 * The Sync pages in Chromium against `pinfold serve`, with real folders on disk (the service runs on this
 * machine, so a path is real): adding folders in a browser (why a drop cannot, a typed path, the command)
 * and in the desktop app (drop-to-sync and the picker through the stubbed bridge), live progress while
 * files are written, Pause/Resume/Rescan/Remove, a folder's page (ignore patterns, `.pinfoldignore`,
 * batches, the gateway), a vanished folder and Retry, the keyboard, what another account sees, axe and
 * screenshots.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { IpnsRecordView, SyncFolderDetail, SyncFolderView } from '../../shared/api-types.js';
import {
  axeCheck,
  bridgeCalls,
  freeUser,
  launchBrowser,
  newContext,
  screenshots,
  signIn,
  signInWithKey,
  startService,
  stubBridge,
  type BridgeStub,
  type E2eService,
} from './kit/index.js';

let service: E2eService;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let scratch: string;

beforeAll(async () => {
  [service, browser, scratch] = await Promise.all([startService(), launchBrowser(), mkdtemp(join(tmpdir(), 'pinfold-e2e-sync-'))]);
});

afterAll(async () => {
  await browser?.close();
  await service?.dispose();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

beforeEach(async () => {
  context = await newContext(browser);
  page = await context.newPage();
});

afterEach(async () => {
  await context.close();
  // Each test starts with no sync folders: what one adds, the next does not see.
  for (const row of await syncRows()) await service.call('POST', '/api/v0/sync/rm', { query: { id: row.id } });
});

/** A real folder with `files` (relative path → content) under the scratch folder. */
async function folderWith(name: string, files: Record<string, string> = {}): Promise<string> {
  const dir = join(scratch, name);
  await mkdir(dir, { recursive: true });
  for (const [relative, content] of Object.entries(files)) {
    await mkdir(join(dir, relative, '..'), { recursive: true });
    await writeFile(join(dir, relative), content);
  }
  return dir;
}

async function syncRows(): Promise<SyncFolderView[]> {
  const answer = await service.call<{ data: SyncFolderView[] }>('GET', '/api/v0/sync');
  expect(answer.status, answer.text).toBe(200);
  return answer.json.data;
}

async function syncDetail(id: string): Promise<SyncFolderDetail> {
  const answer = await service.call<{ data: SyncFolderDetail }>('GET', '/api/v0/sync/detail', { query: { id } });
  expect(answer.status, answer.text).toBe(200);
  return answer.json.data;
}

/** Adds a folder through the API (another client) and waits until its first scan is pinned. */
async function addThroughApi(path: string, body: Record<string, unknown> = {}): Promise<SyncFolderView> {
  const answer = await service.call<{ data: { id: string } }>('POST', '/api/v0/sync/add', { body: { path, ...body } });
  expect(answer.status, answer.text).toBe(200);
  const row = (await syncRows()).find((entry) => entry.id === answer.json.data.id);
  if (!row) throw new Error(`sync folder ${answer.json.data.id} is not listed`);
  return row;
}

/**
 * Drops items named `names` on the page through a synthetic DataTransfer (the bridge stub locates them by
 * name, as Electron's webUtils.getPathForFile would). A string script: this file is type-checked without DOM types.
 */
async function drop(names: string[]): Promise<void> {
  await page.evaluate(`(() => {
    const data = new DataTransfer();
    for (const name of ${JSON.stringify(names)}) data.items.add(new File(['x'], name));
    for (const type of ['dragenter', 'dragover', 'drop']) {
      document.body.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: data }));
    }
  })()`);
}

const heading = (name: string) => page.getByRole('heading', { level: 1, name });
const table = () => page.getByRole('table', { name: 'Sync folders' });
const folderRow = (name: string): Locator =>
  table()
    .getByRole('row')
    .filter({ has: page.getByRole('link', { name, exact: true }) });
const stateOf = (name: string): Locator => folderRow(name).getByTestId('folder-state');

/** The full value of the first identifier (Cid) shown inside `scope`. */
async function shownCid(scope: Locator): Promise<string | null> {
  return scope.locator('.cid-value').first().getAttribute('title');
}

/** The error messages shown inside `scope` (InlineErrors with a message). */
async function shownErrors(scope: Locator): Promise<string[]> {
  return scope.locator('.inline-error:not(.is-empty)').allTextContents();
}

/**
 * Screenshots from the top of the page: a full-page capture of a page scrolled down (after an action
 * further down) draws the fixed header and navigation halfway down the image.
 */
async function shoot(name: string): Promise<void> {
  await page.evaluate('window.scrollTo(0, 0)');
  await screenshots(page, name);
}

/** How wide the page is at a narrow window: nothing may push it past the window (tables scroll inside their own frame). */
async function pageWidthAt(width: number): Promise<number> {
  const viewport = page.viewportSize() ?? { width: 1280, height: 860 };
  await page.setViewportSize({ width, height: viewport.height });
  try {
    return await page.evaluate<number>('document.documentElement.scrollWidth');
  } finally {
    await page.setViewportSize(viewport);
  }
}

async function openSync(): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sync' }).click();
  await heading('Sync').waitFor();
}

/** The desktop window: the owner signed in by the bridge, straight onto /sync. */
async function openDesktop(stub: Partial<BridgeStub> = {}): Promise<void> {
  await stubBridge(context, { ownerKey: service.owner, ...stub });
  await page.goto(`${service.url}/sync`);
  await heading('Sync').waitFor();
}

describe('Sync in a browser', () => {
  it('says in one sentence why a folder cannot be added from here, and offers a path, the command and the Files page', async () => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await signIn(page, service);
    await openSync();
    await page.getByText('No folders are synced yet').waitFor();
    const add = page.getByRole('region', { name: 'Add a folder' });
    await add.getByText('A browser cannot tell Pinfold where a folder is on your computer').waitFor();
    expect(await add.getByRole('link', { name: 'upload a copy on the Files page' }).getAttribute('href')).toBe('/files');

    // The command names this service's data folder, and Copy puts it on the clipboard.
    const command = add.getByTestId('sync-add-command');
    await command.filter({ hasText: `--data ${service.dataDir}` }).waitFor();
    expect(await command.textContent()).toBe(`pinfold sync add /path/to/folder --data ${service.dataDir}`);
    await add.getByRole('button', { name: 'Copy command' }).click();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(`pinfold sync add /path/to/folder --data ${service.dataDir}`);

    // "Add folder…" leads to the path field.
    await page.getByRole('button', { name: 'Add folder…' }).click();
    await page.locator('input:focus').and(page.getByLabel('Folder path')).waitFor();

    // A dropped folder cannot be located: said, named, and the command follows its name.
    await drop(['holiday photos']);
    await add.getByRole('status').filter({ hasText: 'You dropped holiday photos' }).waitFor();
    await command.filter({ hasText: "pinfold sync add '/path/to/holiday photos'" }).waitFor();
    expect(await syncRows()).toEqual([]);
    await axeCheck(page, 'Sync, empty, in a browser');
    await shoot('sync-browser-empty');
  });

  it('refuses a bad path next to the field and adds nothing; a real path starts syncing and the row follows by itself', async () => {
    const notes = await folderWith('browser-notes', { 'a.txt': 'alpha', 'sub/b.txt': 'beta' });
    await writeFile(join(scratch, 'plain-file.txt'), 'not a folder');
    await signIn(page, service);
    await openSync();
    const field = page.getByLabel('Folder path');
    const submit = page.getByRole('button', { name: 'Sync this folder' });
    const fieldError = page.locator('.field-error');
    const cases: Array<[string, string]> = [
      ['   ', "Type the folder's full path."],
      ['relative/notes', 'Path must be absolute.'],
      [join(scratch, 'no-such-folder'), `Folder not found: ${join(scratch, 'no-such-folder')}.`],
      [join(scratch, 'plain-file.txt'), `Not a folder: ${join(scratch, 'plain-file.txt')}.`],
    ];
    for (const [path, message] of cases) {
      await field.fill(path);
      await submit.click();
      await fieldError.filter({ hasText: message }).waitFor();
      expect(await field.getAttribute('aria-invalid')).toBe('true');
      expect(await syncRows()).toEqual([]);
    }
    await shoot('sync-browser-path-error');

    // Enter submits too.
    await field.fill(notes);
    await field.press('Enter');
    await page.getByText('Syncing browser-notes: its first scan has started.').waitFor();
    expect(await field.inputValue()).toBe('');
    await stateOf('browser-notes').filter({ hasText: 'Up to date' }).waitFor();
    await folderRow('browser-notes').getByText('2 files · 9 B').waitFor();
    const [row] = await syncRows();
    expect(row?.path).toBe(notes);
    expect(await shownCid(folderRow('browser-notes').getByRole('cell').nth(3))).toBe(row?.root);

    // The same folder again: refused with the service's reason, nothing added.
    await field.fill(notes);
    await submit.click();
    await fieldError.filter({ hasText: `${notes} is already synced` }).waitFor();
    expect(await syncRows()).toHaveLength(1);
  });
});

describe('Sync in the desktop app', () => {
  it('starts syncing a dropped folder and a picked one at once; refused drops say why, and nothing else is added', async () => {
    const photos = await folderWith('photos', { 'one.jpg': '1'.repeat(1000), 'two.jpg': '2'.repeat(2000) });
    const site = await folderWith('site', { 'index.html': '<h1>hi</h1>' });
    const notesFile = join(scratch, 'notes.txt');
    await writeFile(notesFile, 'a file, not a folder');
    await openDesktop({ filePaths: { photos, 'notes.txt': notesFile }, pickedFolder: site });
    await page.getByText('Drop a folder anywhere on this page to sync it').waitFor();
    await axeCheck(page, 'Sync, empty, desktop');

    await drop(['photos']);
    await page.getByText('Syncing photos: its first scan has started.').waitFor();
    await stateOf('photos').filter({ hasText: 'Up to date' }).waitFor();
    await folderRow('photos').getByText('2 files · 2.9 KiB').waitFor();

    await page.getByRole('button', { name: 'Add folder…' }).click();
    await stateOf('site').filter({ hasText: 'Up to date' }).waitFor();
    expect((await syncRows()).map((row) => row.path).sort()).toEqual([photos, site].sort());
    expect((await bridgeCalls(page)).map((call) => call.method)).toEqual(expect.arrayContaining(['pathForFile', 'pickFolder']));

    // Already synced, a file, and an item the desktop app cannot locate: each said, next to the drop zone.
    await drop(['photos', 'notes.txt', 'elsewhere']);
    const problem = page.getByRole('alert').filter({ hasText: 'notes.txt: Not a folder' });
    await problem.waitFor();
    const text = (await problem.textContent()) ?? '';
    expect(text).toContain(`photos: ${photos} is already synced`);
    expect(text).toContain(`notes.txt: Not a folder: ${notesFile}.`);
    expect(text).toContain('The desktop app could not tell where elsewhere is: choose it with Add folder… instead.');
    expect(await syncRows()).toHaveLength(2);
    await axeCheck(page, 'Sync, desktop, with rows and an error');
    await shoot('sync-desktop-error');

    // The picker cancelled: nothing happens, and the earlier message is cleared.
    await stubBridge(context, { ownerKey: service.owner, pickedFolder: null });
    await page.reload();
    await heading('Sync').waitFor();
    await page.getByRole('button', { name: 'Add folder…' }).click();
    await stateOf('site').waitFor();
    expect(await syncRows()).toHaveLength(2);
  });

  it('shows a picker that fails as an error beside the drop zone', async () => {
    await openDesktop({ failing: ['pickFolder'] });
    await page.getByRole('button', { name: 'Add folder…' }).click();
    await page.getByRole('alert').filter({ hasText: 'The desktop app could not open the folder picker' }).waitFor();
    expect(await syncRows()).toEqual([]);
  });
});

describe('A sync folder, live', () => {
  it('follows files written while the page is open: syncing with files and bytes, then up to date, without a reload', async () => {
    const live = await folderWith('live', { 'start.txt': 'start' });
    await addThroughApi(live);
    await openDesktop();
    await stateOf('live').filter({ hasText: 'Up to date' }).waitFor();
    await folderRow('live').getByText('1 file · 5 B').waitFor();

    // Every text the state cell shows from now on, as the page renders it.
    await page.evaluate(`(() => {
      const seen = (window.__syncStates = []);
      const cell = [...document.querySelectorAll('tr')].find((row) => row.textContent.includes('live'))?.querySelector('[data-testid="folder-state"]')?.parentElement;
      new MutationObserver(() => {
        const text = cell.textContent;
        if (seen.at(-1) !== text) seen.push(text);
      }).observe(cell, { subtree: true, childList: true, characterData: true });
    })()`);
    const FILES = 240;
    const block = 'x'.repeat(96 * 1024);
    await Promise.all(Array.from({ length: FILES }, (_, index) => writeFile(join(live, `file-${String(index).padStart(3, '0')}.bin`), block)));

    await folderRow('live')
      .getByText(`${FILES + 1} files · 22.5 MiB`)
      .waitFor({ timeout: 60_000 });
    await stateOf('live').filter({ hasText: 'Up to date' }).waitFor();
    const seen = await page.evaluate<string[]>('window.__syncStates');
    expect(
      seen.some((text) => text.startsWith('Syncing')),
      seen.join('\n'),
    ).toBe(true);
    expect(
      seen.some((text) => /\d+ of \d+ files · [\d.]+ (B|KiB|MiB) of [\d.]+ (KiB|MiB)/.test(text)),
      seen.join('\n'),
    ).toBe(true);
    const [row] = await syncRows();
    expect(row).toMatchObject({ state: 'idle', files: FILES + 1 });
  });

  it('pauses, resumes, rescans and removes, follows another client live, and says plainly that Remove unpins nothing', async () => {
    const docs = await folderWith('docs', { 'readme.md': '# docs' });
    await openDesktop();
    await page.getByText('No folders are synced yet').waitFor();
    // Added by another client while the page is open: the row comes by itself.
    const added = await addThroughApi(docs);
    await stateOf('docs').filter({ hasText: 'Up to date' }).waitFor();

    await folderRow('docs').getByRole('button', { name: 'Pause docs' }).click();
    await stateOf('docs').filter({ hasText: 'Paused by you' }).waitFor();
    expect((await syncRows())[0]?.state).toBe('paused');
    await shoot('sync-desktop-paused');
    // Resumed by another client: it picks up what changed meanwhile, and the row follows.
    await writeFile(join(docs, 'while-paused.md'), 'later');
    expect((await service.call('POST', '/api/v0/sync/resume', { query: { id: added.id } })).status).toBe(200);
    await stateOf('docs').filter({ hasText: 'Up to date' }).waitFor();
    await folderRow('docs').getByText('2 files').waitFor();
    await folderRow('docs').getByRole('button', { name: 'Pause docs' }).waitFor();

    await folderRow('docs').getByRole('button', { name: 'Rescan docs' }).click();
    await stateOf('docs').filter({ hasText: 'Up to date' }).waitFor();
    expect(await shownErrors(folderRow('docs'))).toEqual([]);

    // Remove: Cancel keeps it; Remove stops syncing and leaves the root pinned.
    await folderRow('docs').getByRole('button', { name: 'Remove docs' }).click();
    const dialog = page.getByRole('dialog', { name: 'Stop syncing docs?' });
    await dialog.getByText('Nothing is unpinned.').waitFor();
    await axeCheck(page, 'Remove a sync folder');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await syncRows()).toHaveLength(1);
    const root = (await syncRows())[0]?.root ?? '';
    await folderRow('docs').getByRole('button', { name: 'Remove docs' }).click();
    await dialog.getByRole('button', { name: 'Remove' }).click();
    await page.getByText('docs is no longer synced. Its last root stays pinned.').waitFor();
    await folderRow('docs').waitFor({ state: 'detached' });
    expect(await syncRows()).toEqual([]);
    expect((await service.call('GET', `/api/v0/pin/${root}`)).status).toBe(200);
  });

  it('shows a folder that vanished from disk as paused with the reason, and Retry syncs it again once it is back', async () => {
    const drive = await folderWith('drive', { 'a.txt': 'a' });
    await addThroughApi(drive);
    await openDesktop();
    await stateOf('drive').filter({ hasText: 'Up to date' }).waitFor();

    await rm(drive, { recursive: true, force: true });
    await stateOf('drive').filter({ hasText: 'Folder not found (drive unmounted or folder deleted).' }).waitFor();
    expect(await stateOf('drive').textContent()).toContain('Paused');
    expect((await syncRows())[0]).toMatchObject({ state: 'paused' });
    await axeCheck(page, 'Sync, a vanished folder');
    await shoot('sync-desktop-vanished');
    expect(await pageWidthAt(320)).toBe(320);

    await folderWith('drive', { 'a.txt': 'a', 'b.txt': 'back again' });
    const retried = page.waitForRequest((request) => request.method() === 'POST' && request.url().includes('/api/v0/sync/retry'));
    await folderRow('drive').getByRole('button', { name: 'Retry drive' }).click();
    await retried;
    await stateOf('drive').filter({ hasText: 'Up to date' }).waitFor();
    await folderRow('drive').getByText('2 files · 11 B').waitFor();
    expect(await shownErrors(folderRow('drive'))).toEqual([]);
  });

  it('takes a Retry that finds the folder already recovered (the service retried first) as done, not as an error', async () => {
    const late = await folderWith('late', { 'a.txt': 'a' });
    const added = await addThroughApi(late);
    await openDesktop();
    await rm(late, { recursive: true, force: true });
    await folderRow('late').getByRole('button', { name: 'Retry late' }).waitFor();
    // The service's own answer when its retry timer won the race (sync/retry on a folder no longer stalled).
    await page.route('**/api/v0/sync/retry*', (route) =>
      route.fulfill({
        status: 409,
        contentType: 'application/json',
        body: JSON.stringify({ code: 409, msg: `id: sync folder ${added.id} is idle, not in error: nothing to retry` }),
      }),
    );
    await folderWith('late', { 'a.txt': 'a' });
    await folderRow('late').getByRole('button', { name: 'Retry late' }).click();
    await stateOf('late').filter({ hasText: 'Up to date' }).waitFor({ timeout: 30_000 });
    expect(await shownErrors(folderRow('late'))).toEqual([]);
  });
});

describe("A sync folder's page", () => {
  it('shows state, content, root and name, .pinfoldignore read-only and the batches; edits the ignore patterns, refusing bad ones', async () => {
    const site = await folderWith('blog', {
      'index.html': '<h1>blog</h1>',
      'debug.log': 'noise',
      'draft.secret': 'hidden',
      '.pinfoldignore': '*.secret\n',
    });
    const added = await addThroughApi(site, { ignore: ['*.bak'] });
    await openDesktop();
    await folderRow('blog').getByRole('link', { name: 'blog', exact: true }).click();
    await heading('blog').waitFor();
    expect(new URL(page.url()).pathname).toBe(`/sync/${added.id}`);
    // index.html, debug.log and .pinfoldignore itself (draft.secret is ignored by it).
    await page
      .getByTestId('folder-content')
      .filter({ hasText: /^3 files/ })
      .waitFor();
    const detail = await syncDetail(added.id);
    expect(await shownCid(page.getByTestId('folder-root'))).toBe(detail.root);
    expect(await shownCid(page.getByTestId('folder-ipns'))).toBe(detail.ipns_name);
    expect(await page.getByTestId('pinfoldignore').textContent()).toBe('*.secret\n');
    const patterns = page.getByRole('list', { name: 'Patterns of this folder' });
    expect(await patterns.getByRole('listitem').allTextContents()).toEqual(['*.bak']);
    const batches = page.getByRole('table', { name: 'Versions' });
    expect(await batches.getByRole('row').count()).toBe(2);
    await page.getByTestId('no-errors').waitFor();

    // Open is a link to the gateway in a new tab; the gateway worker adds this window's key to it.
    const open = page.getByTestId('folder-root').getByRole('link', { name: 'Open the root of blog in the gateway' });
    expect(await open.getAttribute('href')).toBe(`/ipfs/${detail.root}/`);
    const [tab] = await Promise.all([context.waitForEvent('page'), open.click()]);
    // The folder has an index.html, which the gateway serves for it.
    await tab.getByRole('heading', { name: 'blog' }).waitFor();
    await tab.close();

    // The desktop app shows the folder in the file manager.
    await page.getByRole('button', { name: 'Show in file manager' }).click();
    await expect.poll(async () => (await bridgeCalls(page)).filter((call) => call.method === 'openFolder')).toEqual([{ method: 'openFolder', args: [site] }]);
    await axeCheck(page, 'Sync folder page');
    await shoot('sync-folder');
    expect(await pageWidthAt(320)).toBe(320);

    // Bad patterns: refused with the line at fault (here) or the service's reason, and nothing changes.
    const edit = page.getByRole('button', { name: 'Edit patterns' });
    await edit.click();
    const editor = page.getByLabel('Patterns of this folder');
    await page.locator('textarea:focus').waitFor();
    const save = page.getByRole('button', { name: 'Save patterns' });
    await editor.fill(`*.bak\n${'x'.repeat(1025)}`);
    await save.click();
    await page.locator('.field-error').filter({ hasText: 'Line 2 is 1,025 characters long; a pattern can have at most 1,024.' }).waitFor();
    await editor.fill(Array.from({ length: 1001 }, (_, index) => `p${index}`).join('\n'));
    await save.click();
    await page.locator('.field-error').filter({ hasText: 'Ignore has more than 1000 patterns.' }).waitFor();
    await axeCheck(page, 'Ignore patterns with an error');
    await shoot('sync-folder-ignore-error');
    const unchanged = await syncDetail(added.id);
    expect(unchanged.ignore).toEqual(['*.bak']);
    expect(unchanged.batches).toHaveLength(1);

    // Escape cancels, and focus returns to Edit patterns.
    await editor.press('Escape');
    await page.locator('button:focus', { hasText: 'Edit patterns' }).waitFor();
    expect(await patterns.getByRole('listitem').allTextContents()).toEqual(['*.bak']);

    // A good change applies at once: the log leaves the root in one batch, shown without a reload.
    await edit.click();
    await editor.fill('*.bak\n\n*.log\n');
    await save.click();
    await page.getByText('Ignore patterns of blog saved: the folder is scanned again with them.').waitFor();
    expect(await patterns.getByRole('listitem').allTextContents()).toEqual(['*.bak', '*.log']);
    await batches.getByRole('row').nth(2).waitFor();
    expect(await batches.getByRole('row').nth(1).getByRole('cell').nth(1).getAttribute('title')).toBe(null);
    expect(await batches.getByRole('row').nth(1).locator('.version-changes').getAttribute('title')).toBe('1 removed');
    expect(await batches.getByRole('row').nth(2).locator('.version-changes').getAttribute('title')).toBe('3 added');
    await page
      .getByTestId('folder-content')
      .filter({ hasText: /^2 files/ })
      .waitFor();
    expect((await syncDetail(added.id)).ignore).toEqual(['*.bak', '*.log']);
  });

  it("makes the folder's name public from its page, after the confirmation, and private again", async () => {
    const site = await folderWith('journal', { 'a.md': '# a' });
    const added = await addThroughApi(site);
    await openDesktop();
    await page.goto(`${service.url}/sync/${added.id}`);
    await heading('journal').waitFor();
    const toggle = page.getByTestId('folder-public').getByRole('switch', { name: 'Public on the IPFS network: journal' });
    expect(await toggle.getAttribute('aria-checked')).toBe('false');
    expect(await page.getByTestId('folder-public').textContent()).toContain('Private');
    await toggle.click();
    const dialog = page.getByRole('dialog', { name: 'Make journal public?' });
    await dialog.getByRole('button', { name: 'Make public' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await toggle.getAttribute('aria-checked')).toBe('true');
    expect(await page.getByTestId('folder-public').textContent()).toContain('Public');
    expect((await syncDetail(added.id)).public).toBe(true);
    const names = await service.call<{ data: IpnsRecordView }>('GET', `/api/v0/ipns/${added.ipns_name}`);
    expect(names.json.data.public).toBe(true);
    await axeCheck(page, 'Sync folder page, public name');
    await shoot('sync-folder-public');
    await toggle.click();
    // The switch turns when the service's answer arrives, a moment after the service changed.
    await expect.poll(async () => toggle.getAttribute('aria-checked')).toBe('false');
    expect((await syncDetail(added.id)).public).toBe(false);
  });

  it('where no service worker runs (not a localhost address), Open explains that the gateway needs a key, with the address to copy', async () => {
    await context.addInitScript('delete Navigator.prototype.serviceWorker;');
    const site = await folderWith('notes', { 'a.txt': 'a' });
    const added = await addThroughApi(site);
    await openDesktop();
    await folderRow('notes').getByRole('link', { name: 'notes', exact: true }).click();
    await heading('notes').waitFor();
    // Synced: the root is there to open.
    await page
      .getByTestId('folder-content')
      .filter({ hasText: /^1 file/ })
      .waitFor();
    const detail = await syncDetail(added.id);
    await page.getByTestId('folder-root').getByRole('button', { name: 'Open the root of notes in the gateway' }).click();
    const explanation = page.getByRole('dialog', { name: 'Open the root of notes in the gateway' });
    await explanation.getByText('This gateway needs an access key.').waitFor();
    await explanation.getByText(`${service.url}/ipfs/${detail.root}/`, { exact: true }).waitFor();
    await axeCheck(page, 'Gateway explanation');
    await page.keyboard.press('Escape');
    await explanation.waitFor({ state: 'hidden' });
  });

  it('lists a vanished folder’s error with Retry, and says so when the folder is removed elsewhere or unknown', async () => {
    const box = await folderWith('box', { 'a.txt': 'a' });
    const added = await addThroughApi(box);
    await openDesktop();
    await page.goto(`${service.url}/sync/${added.id}`);
    await heading('box').waitFor();
    await rm(box, { recursive: true, force: true });
    const errors = page.getByRole('table', { name: 'Recent errors' });
    await errors.getByText('Folder not found (drive unmounted or folder deleted).').first().waitFor();
    expect(await errors.getByText('The whole folder').count()).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Retry box' }).waitFor();
    await shoot('sync-folder-error');

    // Removed by another client: the page says so instead of showing a stale folder.
    await service.call('POST', '/api/v0/sync/rm', { query: { id: added.id } });
    await page.getByText('It was removed while this page was open.').waitFor();

    await page.goto(`${service.url}/sync/00000000-0000-4000-8000-000000000000`);
    await page.getByText('There is no sync folder with the id 00000000-0000-4000-8000-000000000000.').waitFor();
    await axeCheck(page, 'Unknown sync folder');
  });
});

describe('Sync, keyboard and other accounts', () => {
  it('works from the keyboard: Pause flips to Resume in place, the Remove dialog returns focus', async () => {
    const keys = await folderWith('keys', { 'k.txt': 'k' });
    await addThroughApi(keys);
    await openDesktop();
    await stateOf('keys').filter({ hasText: 'Up to date' }).waitFor();
    await folderRow('keys').getByRole('button', { name: 'Pause keys' }).focus();
    await page.keyboard.press('Enter');
    await page.locator('button:focus[aria-label="Resume keys"]').waitFor();
    await page.keyboard.press('Enter');
    await page.locator('button:focus[aria-label="Pause keys"]').waitFor();
    await stateOf('keys').filter({ hasText: 'Up to date' }).waitFor();

    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.locator('button:focus[aria-label="Remove keys"]').waitFor();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Stop syncing keys?' });
    await dialog.locator('button:focus', { hasText: 'Cancel' }).waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await page.locator('button:focus[aria-label="Remove keys"]').waitFor();

    // The folder's link opens its page, whose heading takes focus.
    await folderRow('keys').getByRole('link', { name: 'keys', exact: true }).focus();
    await page.keyboard.press('Enter');
    await page.locator('h1:focus', { hasText: 'keys' }).waitFor();
    expect(await syncRows()).toHaveLength(1);
  });

  it('tells another account that sync is for the owner, without an error', async () => {
    const user = await freeUser(service);
    await page.goto(`${service.url}/sync`);
    await signInWithKey(page, user.key);
    await heading('Sync').waitFor();
    await page.getByText('Sync is for the owner of this Pinfold').waitFor();
    expect(await page.getByRole('alert').filter({ hasText: /\S/ }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Add folder…' }).count()).toBe(0);
    await axeCheck(page, 'Sync, not the owner');
    await page.goto(`${service.url}/sync/00000000-0000-4000-8000-000000000000`);
    await page.getByText('Sync is for the owner of this Pinfold').waitFor();
  });
});
