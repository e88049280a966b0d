/**
 * The Files page in Chromium against `pinfold serve`: files picked or dropped (a synthetic DataTransfer)
 * become uploads with progress, their CIDs the service's own, pinned by name; Cancel stops an upload on the
 * service too; every refusal shows next to its upload and changes nothing; pin states follow other clients
 * live; the recent uploads survive a reload, per account; Copy and Open; the keyboard; axe and screenshots.
 * Folders are in files-folders.test.ts.
 */
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AccountUsage, PinRecord } from '../../shared/api-types.js';
import type { CreatedAccessKey } from '../../shared/api-types.js';
import { UNIXFS_PROFILES } from '../../shared/unixfs-profiles.js';
import { referenceFileCid } from '../helpers/unixfs-reference.js';
import { dropFiles, dropFolder, dropUnreadable } from './files-helpers.js';
import {
  axeCheck,
  freeUser,
  launchBrowser,
  newContext,
  screenshots,
  signIn,
  signInWithKey,
  startService,
  upload,
  uploadAndPin,
  type E2eService,
} from './kit/index.js';

let service: E2eService;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  service = await startService();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await service?.dispose();
});

beforeEach(async () => {
  context = await newContext(browser, { permissions: ['clipboard-read', 'clipboard-write'] });
  page = await context.newPage();
});

afterEach(async () => {
  await context.close();
});

const text = (value: string) => new TextEncoder().encode(value);
const recent = () => page.getByRole('table', { name: 'Recent uploads' });
const recentRow = (name: string) =>
  recent()
    .getByRole('row')
    .filter({ has: page.getByText(name, { exact: true }) });
/** A row's pin state as shown (the Pin column, or under the name at narrow widths). */
const pinState = (row: Locator, state: string) => row.getByText(state, { exact: true }).filter({ visible: true });
const uploadsList = () => page.getByRole('list', { name: 'Uploads' });

async function openFiles(key?: CreatedAccessKey): Promise<void> {
  if (key) {
    await page.goto(`${service.url}/files`);
    await signInWithKey(page, key);
  } else {
    await signIn(page, service);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Files' }).click();
  }
  await page.getByRole('heading', { level: 1, name: 'Files' }).waitFor();
  // Ready for uploads once the service's upload settings are in.
  await page.locator('button:not([disabled])', { hasText: 'Choose files…' }).waitFor();
}

async function stats(key?: CreatedAccessKey): Promise<AccountUsage> {
  const answer = await service.call<{ data: AccountUsage }>('GET', '/api/v0/stats', key ? { key } : {});
  expect(answer.status, answer.text).toBe(200);
  return answer.json.data;
}

async function pinOf(cid: string, key?: CreatedAccessKey): Promise<PinRecord | null> {
  const answer = await service.call<{ data: PinRecord }>('GET', `/api/v0/pin/${cid}`, key ? { key } : {});
  return answer.status === 200 ? answer.json.data : null;
}

/** The full CID a recent-uploads row shows (its copy button copies the same). */
async function cidIn(name: string): Promise<string> {
  return ((await recentRow(name).locator('.cid-value').getAttribute('title')) ?? '').trim();
}

async function pickFiles(files: Array<{ name: string; bytes: Uint8Array }>): Promise<void> {
  await page
    .getByTestId('pick-files')
    .setInputFiles(files.map((file) => ({ name: file.name, mimeType: 'application/octet-stream', buffer: Buffer.from(file.bytes) })));
}

/** Slows the page's uploads to `bytesPerSecond` (Chromium's network emulation); null lifts it. */
async function throttleUploads(bytesPerSecond: number | null): Promise<void> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: bytesPerSecond ?? -1 });
}

describe('Files', () => {
  it('explains itself when nothing was uploaded, and the keyboard reaches both pickers', async () => {
    await openFiles();
    await page.getByText('Drop files or folders anywhere on this page').waitFor();
    expect(await page.getByRole('checkbox', { name: /Pin each upload when it is done/ }).isChecked()).toBe(true);
    await recent().getByText('Nothing uploaded from this browser yet').waitFor();
    expect(await page.getByRole('list', { name: 'Uploads' }).count()).toBe(0);

    // From the page's heading, Tab reaches "Choose files…", then "Choose folder…", which Enter opens.
    // (Listening for the file chooser first: Playwright intercepts the dialog once someone listens.)
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('heading', { level: 1, name: 'Files' }).focus();
    await page.keyboard.press('Tab');
    await page.locator('button:focus', { hasText: 'Choose files…' }).waitFor();
    await page.keyboard.press('Tab');
    await page.locator('button:focus', { hasText: 'Choose folder…' }).waitFor();
    await page.keyboard.press('Enter');
    expect((await chooser).isMultiple()).toBe(false);
    await axeCheck(page, 'Files, empty');
    await screenshots(page, 'files-empty');
  });

  it('uploads picked files to the CIDs the service gives the same bytes, pins them by name, with Copy and Open', async () => {
    await openFiles();
    const before = await stats();
    const hello = text('hello from the Files page\n');
    const big = new Uint8Array(1_500_000).map((_, i) => (i * 7) % 251);
    await pickFiles([
      { name: 'hello.txt', bytes: hello },
      { name: 'big.bin', bytes: big },
    ]);
    await pinState(recentRow('hello.txt'), 'Pinned').waitFor();
    await pinState(recentRow('big.bin'), 'Pinned').waitFor();

    // The same bytes uploaded through the API get the same CIDs: the page sent the files as they are.
    expect(await cidIn('hello.txt')).toBe(await upload(service, service.owner, hello));
    expect(await cidIn('big.bin')).toBe(await upload(service, service.owner, big));
    expect(await pinOf(await cidIn('hello.txt'))).toMatchObject({ name: 'hello.txt', status: 'pinned', size: hello.length });
    expect(await pinOf(await cidIn('big.bin'))).toMatchObject({ name: 'big.bin', status: 'pinned' });
    const after = await stats();
    // Counted once each by the page's uploads, once more by the two made here through the API.
    expect(after.ingress - before.ingress).toBe(2 * (hello.length + big.length));
    expect(after.pinned_count - before.pinned_count).toBe(2);
    expect(await uploadsList().count()).toBe(0);
    await expect.poll(() => recentRow('big.bin').textContent()).toContain('1.4 MiB');

    // Copy puts the whole CID on the clipboard.
    await recentRow('hello.txt').getByRole('button', { name: 'Copy CID' }).click();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(await cidIn('hello.txt'));

    // Open shows the file in a new tab: the gateway answers with the window's key, which the link does not carry.
    const open = recentRow('hello.txt').getByRole('link', { name: 'Open hello.txt in a new tab' });
    expect(await open.getAttribute('href')).toBe(`/ipfs/${await cidIn('hello.txt')}?filename=hello.txt`);
    const [tab] = await Promise.all([context.waitForEvent('page'), open.click()]);
    await tab.getByText('hello from the Files page').waitFor();
    expect(new URL(tab.url()).search).toBe('?filename=hello.txt');
    await tab.close();

    // The list survives a reload.
    await page.reload();
    await pinState(recentRow('hello.txt'), 'Pinned').waitFor();
    await pinState(recentRow('big.bin'), 'Pinned').waitFor();
    await axeCheck(page, 'Files with uploads');
    await screenshots(page, 'files-recent');

    // In a narrow window every row still shows its pin state and its buttons, without scrolling sideways.
    await page.setViewportSize({ width: 480, height: 860 });
    await pinState(recentRow('hello.txt'), 'Pinned').waitFor();
    const scroller = page.locator('.table-scroll').filter({ has: recent() });
    expect(await scroller.evaluate((element: { scrollWidth: number; clientWidth: number }) => element.scrollWidth <= element.clientWidth)).toBe(true);
    await recentRow('hello.txt').getByRole('button', { name: 'Remove hello.txt from this list' }).waitFor();
    await axeCheck(page, 'Files with uploads, narrow');
  });

  it('uploads files dropped anywhere on the page (a synthetic DataTransfer), and shows where to drop while dragging', async () => {
    // Opened at localhost while the service listens at 127.0.0.1: its upload addresses name 127.0.0.1, and
    // step 2 goes to the page's own origin all the same (another origin would be refused by connect-src).
    const localhost = service.url.replace('127.0.0.1', 'localhost');
    await page.goto((await service.signInLink()).replace(service.url, localhost));
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    await page.goto(`${localhost}/files`);
    await page.locator('button:not([disabled])', { hasText: 'Choose files…' }).waitFor();
    await dropFiles(page, [{ path: 'dropped.txt', text: 'dropped on the page\n' }], { drop: false });
    await page.getByTestId('drop-overlay').getByText('Drop files or folders to upload them').waitFor();
    await axeCheck(page, 'Files, dragging');
    await dropFiles(page, [
      { path: 'dropped.txt', text: 'dropped on the page\n' },
      { path: 'second.md', text: '# two\n' },
    ]);
    await page.getByTestId('drop-overlay').waitFor({ state: 'detached' });
    await pinState(recentRow('dropped.txt'), 'Pinned').waitFor();
    await pinState(recentRow('second.md'), 'Pinned').waitFor();
    expect(await cidIn('second.md')).toBe(await upload(service, service.owner, text('# two\n')));
    await page
      .getByRole('status')
      .filter({ hasText: /^Uploaded (dropped\.txt|second\.md): / })
      .waitFor({ state: 'attached' });
  });

  it('Cancel stops an upload on the service: nothing stored, nothing counted; Retry then uploads it', async () => {
    await openFiles();
    await page.getByRole('checkbox', { name: /Pin each upload/ }).uncheck();
    const before = await stats();
    const bytes = new Uint8Array(3_000_000).map((_, i) => (i * 13) % 256);
    await throttleUploads(256 * 1024);
    await pickFiles([
      { name: 'slow-1.bin', bytes },
      { name: 'slow-2.bin', bytes: bytes.subarray(1) },
    ]);
    const row = uploadsList().getByTestId('upload-row').filter({ hasText: 'slow-1.bin' });
    // Under way: some bytes sent, far from all.
    await row.getByText(/Uploading \d+(\.\d)? (KiB|MiB) of 2\.9 MiB/).waitFor();
    await page.getByRole('progressbar', { name: /Uploading 2 items/ }).waitFor();
    await axeCheck(page, 'Files, uploading');
    await screenshots(page, 'files-uploading');
    await row.getByRole('button', { name: 'Cancel upload of slow-1.bin' }).click();
    await row.getByText('Cancelled. Nothing was stored.').waitFor();
    await page.getByRole('button', { name: 'Cancel all' }).waitFor({ state: 'detached' });
    await uploadsList().getByTestId('upload-row').filter({ hasText: 'slow-2.bin' }).getByRole('button', { name: 'Cancel upload of slow-2.bin' }).click();
    await uploadsList().getByText('Cancelled. Nothing was stored.').nth(1).waitFor();

    // The service dropped both: the bytes are held nowhere, and a later upload counts alone.
    await throttleUploads(null);
    const cancelledCid = await referenceFileCid(bytes, UNIXFS_PROFILES['unixfs-v1-2025']);
    expect((await service.call('GET', '/api/v0/dag/get', { query: { arg: cancelledCid } })).status).toBe(404);
    await uploadAndPin(service, service.owner, text('after the cancel\n'), 'marker');
    const after = await stats();
    expect(after.ingress - before.ingress).toBe('after the cancel\n'.length);
    expect(after.pinned_count - before.pinned_count).toBe(1);
    expect(await recent().getByText('slow-1.bin').count()).toBe(0);

    await row.getByRole('button', { name: 'Retry' }).click();
    await pinState(recentRow('slow-1.bin'), 'Not pinned').waitFor();
    expect(await cidIn('slow-1.bin')).toBe(cancelledCid);
    await uploadsList().getByTestId('upload-row').filter({ hasText: 'slow-2.bin' }).getByRole('button', { name: 'Dismiss slow-2.bin' }).click();
    await uploadsList().waitFor({ state: 'detached' });
  });

  it('shows each refusal next to its upload and changes nothing: a refused address, a plan limit on pins, a name too long, unreadable drops', async () => {
    const user = await freeUser(service);
    // The Free plan's 100 pins, all taken.
    await Promise.all(Array.from({ length: 100 }, (_, i) => uploadAndPin(service, user.key, text(`pin ${i}\n`), `pin ${i}`)));
    await openFiles(user.key);
    const before = await stats(user.key);
    expect(before.pinned_count).toBe(100);

    // Step 2 sent to an altered address: the service refuses it (401) before reading a byte.
    const stepTwo = (url: URL) => url.searchParams.has('ssig');
    await page.route(stepTwo, (route) => {
      const url = new URL(route.request().url());
      url.searchParams.set('ssig', `${url.searchParams.get('ssig') ?? ''}x`);
      return route.continue({ url: url.href });
    });
    await pickFiles([{ name: 'refused.txt', bytes: text('refused\n') }]);
    const refused = uploadsList().getByTestId('upload-row').filter({ hasText: 'refused.txt' });
    await refused
      .getByRole('alert')
      .filter({ hasText: /^The service refused the upload address: upload address .+\. Try again\.$/ })
      .waitFor();
    expect(await stats(user.key)).toMatchObject({ ingress: before.ingress, pinned_count: 100 });

    // Dropped things that cannot be uploaded: the page says so, and uploads nothing.
    await dropFolder(page, 'vanished', [
      { path: 'ok.txt', text: 'ok' },
      { path: 'gone.txt', text: null },
    ]);
    await page.getByRole('alert').filter({ hasText: 'Nothing was uploaded: vanished/gone.txt could not be read (NotFoundError).' }).waitFor();
    expect(await uploadsList().getByText('vanished').count()).toBe(0);
    await dropUnreadable(page);
    await page.getByRole('alert').filter({ hasText: 'Nothing to upload in what was dropped: drop files or folders from your computer.' }).waitFor();
    await axeCheck(page, 'Files with errors');
    await screenshots(page, 'files-errors');
    await page.unroute(stepTwo);

    // Retried with a good address, it uploads; the pin is refused by the plan, and the row says why.
    await refused.getByRole('button', { name: 'Retry' }).click();
    const row = recentRow('refused.txt');
    await row.getByRole('alert').filter({ hasText: "Not pinned: Your plan's limit on pins is reached. Unpin something or move to a larger plan." }).waitFor();
    await pinState(row, 'Not pinned').waitFor();
    expect(await stats(user.key)).toMatchObject({ ingress: before.ingress + 'refused\n'.length, pinned_count: 100 });

    // Pin… asks for a name: one too long is refused in the page; the plan's refusal stays in the dialog.
    await row.getByRole('button', { name: 'Pin refused.txt…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Pin this upload?' });
    const name = dialog.getByRole('textbox', { name: 'Pin name' });
    expect(await name.inputValue()).toBe('refused.txt');
    await name.fill('n'.repeat(256));
    await dialog.getByRole('button', { name: 'Pin', exact: true }).click();
    await dialog.getByText('A pin name can have at most 255 characters (this one has 256).').waitFor();
    expect(await name.getAttribute('aria-invalid')).toBe('true');
    await name.fill('kept');
    await name.press('Enter');
    await dialog.getByRole('alert').filter({ hasText: "Your plan's limit on pins is reached." }).waitFor();
    await axeCheck(page, 'Pin dialog with an error');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect((await stats(user.key)).pinned_count).toBe(100);
    expect(await pinOf(await cidIn('refused.txt'), user.key)).toBeNull();
  });

  it('follows pin changes made elsewhere, live; keeps its list per account; Pin… and Remove from list', async () => {
    const user = await freeUser(service);
    await openFiles(user.key);
    await page.getByRole('checkbox', { name: /Pin each upload/ }).uncheck();
    await pickFiles([{ name: 'live.txt', bytes: text('live pin states\n') }]);
    const row = recentRow('live.txt');
    await pinState(row, 'Not pinned').waitFor();
    const cid = await cidIn('live.txt');

    // Another client pins it, then unpins it: the row follows without a reload.
    expect((await service.call('POST', '/api/v0/pin/add', { key: user.key, query: { arg: cid, name: 'by a script' } })).status).toBe(200);
    await pinState(row, 'Pinned').waitFor();
    expect((await service.call('POST', '/api/v0/pin/rm', { key: user.key, query: { arg: cid } })).status).toBe(200);
    await pinState(row, 'Unpinning').waitFor();

    // The choice not to pin is remembered; the list is this account's, and survives signing out and in.
    await page.reload();
    expect(await page.getByRole('checkbox', { name: /Pin each upload/ }).isChecked()).toBe(false);
    await row.waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await signIn(page, service);
    await page.goto(`${service.url}/files`);
    await recent().getByText('Nothing uploaded from this browser yet').waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await signInWithKey(page, user.key);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Files' }).click();
    await row.waitFor();

    // Pin… by keyboard: the dialog opens on Cancel, the name is the file's, Enter pins.
    await row.getByRole('button', { name: 'Pin live.txt…' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Pin this upload?' });
    await dialog.locator('button:focus', { hasText: 'Cancel' }).waitFor();
    await dialog.getByRole('textbox', { name: 'Pin name' }).fill('pinned from the list');
    await dialog.getByRole('textbox', { name: 'Pin name' }).press('Enter');
    await dialog.waitFor({ state: 'hidden' });
    await pinState(row, 'Pinned').waitFor();
    expect(await pinOf(cid, user.key)).toMatchObject({ name: 'pinned from the list', status: 'pinned' });

    // Remove from list forgets it here only: the pin stays.
    await row.getByRole('button', { name: 'Remove live.txt from this list' }).click();
    await recent().getByText('Nothing uploaded from this browser yet').waitFor();
    await page.reload();
    await recent().getByText('Nothing uploaded from this browser yet').waitFor();
    expect(await pinOf(cid, user.key)).toMatchObject({ status: 'pinned' });
  });
});
