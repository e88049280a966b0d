/**
 * The Pins page in Chromium against `pinfold serve`: the table (name, CID, status, size, created) with its
 * empty state, Add pin (bad input refused before and by the service), the row moving from Pinning to
 * Pinned by itself, search by name (as you type, the stale request aborted) and by CID in either
 * spelling, the status filter, pages and page size in the URL, inline rename, Unpin with confirmation and
 * Pin again, copy and open, live changes from another client, the keyboard, and errors next to their
 * action.
 */
import { CID } from 'multiformats/cid';
import * as raw from 'multiformats/codecs/raw';
import { sha256 } from 'multiformats/hashes/sha2';
import { create as createDigest } from 'multiformats/hashes/digest';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PinListEnvelope, PinRecord, ServiceFacts } from '../../shared/api-types.js';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatBytes, formatDuration } from '../../renderer/lib/format.js';
import { formatShortMoment } from '../../renderer/lib/sync-pins.js';
import {
  axeCheck,
  freeUser,
  launchBrowser,
  newContext,
  SCREENSHOT_DIR,
  screenshots,
  signIn,
  signInWithKey,
  startService,
  upload,
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
  context = await newContext(browser);
  page = await context.newPage();
});

afterEach(async () => {
  await context.close();
});

const encoder = new TextEncoder();
const heading = () => page.getByRole('heading', { level: 1, name: 'Pins' });
const table = () => page.getByRole('table', { name: 'Pins' });
const rows = () => table().locator('tbody tr:not(.table-placeholder)');
const row = (text: string) => rows().filter({ hasText: text });
const summary = () => page.getByTestId('pins-summary');
const search = () => page.getByRole('searchbox', { name: 'Search pins by name or CID' });
const path = () => new URL(page.url()).pathname + new URL(page.url()).search;

/** The CID the service gives these bytes as one small file (a raw leaf), without uploading them. */
async function cidOf(bytes: Uint8Array): Promise<string> {
  return CID.createV1(raw.code, await sha256.digest(bytes)).toString();
}

async function pin(cid: string, name: string, key = service.owner): Promise<void> {
  const answer = await service.call('POST', '/api/v0/pin/add', { key, query: { arg: cid, name } });
  expect(answer.status, answer.text).toBe(200);
}

async function pinRecord(cid: string, key = service.owner): Promise<{ status: number; pin?: PinRecord }> {
  const answer = await service.call<{ data: PinRecord }>('GET', `/api/v0/pin/${cid}`, { key });
  return answer.status === 200 ? { status: 200, pin: answer.json.data } : { status: answer.status };
}

async function listTotal(query: Record<string, string> = {}, key = service.owner): Promise<number> {
  const answer = await service.call<PinListEnvelope>('GET', '/api/v0/pin', { key, query: { limit: 1, ...query } });
  expect(answer.status, answer.text).toBe(200);
  return answer.json.total;
}

async function openPins(query = ''): Promise<void> {
  await page.goto(`${service.url}/pins${query}`);
  await heading().waitFor();
  await rows().first().waitFor();
}

/** Requests to pin/add the page sends, to show that bad input is refused before any. */
function pinAddRequests(): Request[] {
  const seen: Request[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/v0/pin/add') seen.push(request);
  });
  return seen;
}

describe('Pins', () => {
  it('shows an empty account what to do next', async () => {
    await signIn(page, service);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Pins' }).click();
    await heading().waitFor();
    await page.getByText('No pins yet').waitFor();
    // Nothing to search or page through yet.
    expect(await search().count()).toBe(0);
    expect(await page.getByRole('navigation', { name: 'Pins pages' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Upload on the Files page' }).getAttribute('href')).toBe('/files');
    await axeCheck(page, 'empty Pins');
    await screenshots(page, 'pins-empty');
  });

  it('adds a pin by CID with a name; the row moves from Pinning to Pinned by itself', async () => {
    const bytes = encoder.encode('content that arrives after its pin\n'.repeat(40));
    const cid = await cidOf(bytes);
    await signIn(page, service);
    await page.goto(`${service.url}/pins`);
    await page.getByText('No pins yet').waitFor();
    const requests = pinAddRequests();
    await page.getByRole('button', { name: 'Add pin' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Add pin' });
    await dialog.waitFor();
    // Focus starts in the CID field.
    await dialog.locator('input:focus').waitFor();

    // Refused here, before any request: nothing, not a CID, a path inside a CID.
    await dialog.getByRole('button', { name: 'Add pin' }).click();
    await dialog.getByText('Enter a CID.').waitFor();
    await dialog.getByLabel('CID').fill('bafy-not-a-cid');
    await page.keyboard.press('Enter');
    await dialog.getByText('This is not a CID.').waitFor();
    await dialog.getByLabel('CID').fill(`/ipfs/${cid}/inside/a.txt`);
    await dialog.getByRole('button', { name: 'Add pin' }).click();
    await dialog.getByText(`Only a whole CID can be pinned, not a path inside it: use ${cid} instead.`).waitFor();
    expect(await dialog.getByLabel('CID').getAttribute('aria-invalid')).toBe('true');
    expect(requests).toHaveLength(0);
    await axeCheck(page, 'Add pin with an error');

    // Refused by the service: a hash it cannot verify (blake3). The dialog stays, nothing is pinned.
    const blake3 = CID.createV1(raw.code, createDigest(0x1e, new Uint8Array(32).fill(7))).toString();
    await dialog.getByLabel('CID').fill(blake3);
    await dialog.getByRole('button', { name: 'Add pin' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'This CID uses multihash function 0x1e with a 32-byte digest, which Pinfold cannot verify.' }).waitFor();
    expect(requests).toHaveLength(1);
    expect((await pinRecord(blake3)).status).toBe(404);
    await screenshots(page, 'pins-add-error');

    // An address of the CID is taken as the CID.
    await dialog.getByLabel('CID').fill(`ipfs://${cid}`);
    await dialog.getByLabel('Name (optional)').fill('Arrives later.txt');
    await dialog.getByRole('button', { name: 'Add pin' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const added = row('Arrives later.txt');
    await added.getByText('Pinning').waitFor();
    await page.getByText('Pinning Arrives later.txt.').waitFor();
    expect(await pinRecord(cid)).toMatchObject({ status: 200, pin: { name: 'Arrives later.txt', status: 'pinning' } });

    // Another client uploads the bytes: the row turns Pinned with its size, without a reload.
    expect(await upload(service, service.owner, bytes)).toBe(cid);
    await added.getByText('Pinned').waitFor();
    await added.getByText(formatBytes(bytes.length)).waitFor();
    expect(await pinRecord(cid)).toMatchObject({ pin: { status: 'pinned', size: bytes.length } });
    await axeCheck(page, 'Pins with a row');
  });
});

describe('Pins: a longer list', () => {
  const reports: Array<{ name: string; cid: string }> = [];
  const waiting: Array<{ name: string; cid: string }> = [];
  const EMPTY_DIR_V0 = 'QmUNLLsPACCz1vLxQVkXqqLX5R1X345qqfHbsf67hvA3Nn';
  const EMPTY_DIR_V1 = 'bafybeiczsscdsbs7ffqz55asqdf3smv6klcw3gofszvwlyarci47bgf354';
  let notes: { name: string; cid: string; text: string };
  let webPage: { name: string; cid: string };

  beforeAll(async () => {
    // Pinned content (uploaded, then pinned), pins still waiting for their blocks, a dag-pb CID kept in its v0 spelling.
    for (let i = 0; i < 20; i++) {
      const cid = await upload(service, service.owner, encoder.encode(`report number ${i}\n`));
      reports.push({ name: `report ${i}`, cid });
      await pin(cid, `report ${i}`);
    }
    for (let i = 0; i < 30; i++) {
      const cid = await cidOf(encoder.encode(`photo that never arrives ${i}\n`));
      waiting.push({ name: `photo ${i}`, cid });
      await pin(cid, `photo ${i}`);
    }
    await pin(EMPTY_DIR_V0, 'empty folder');
    const text = 'Notes to open in a tab.\n';
    notes = { name: 'notes.txt', cid: await upload(service, service.owner, encoder.encode(text)), text };
    await pin(notes.cid, notes.name);
    webPage = {
      name: 'page.html',
      cid: await upload(service, service.owner, encoder.encode('<!doctype html><title>x</title><script>alert(1)</script><p>hi</p>')),
    };
    await pin(webPage.cid, webPage.name);
  });

  it('pages through the list with the total, a page size, and the page in the URL', async () => {
    const total = await listTotal({ status: 'active' });
    await signIn(page, service);
    await openPins();
    expect(await summary().textContent()).toBe(`${total.toLocaleString('en-US')} active pins.`);
    const pages = page.getByRole('navigation', { name: 'Pins pages' });
    await pages.getByText(`1–25 of ${total}`).waitFor();
    expect(await rows().count()).toBe(25);
    // Newest first: the last pin added leads.
    expect(await rows().first().textContent()).toContain(webPage.name);
    await axeCheck(page, 'Pins, full');
    await screenshots(page, 'pins-full');

    await pages.getByLabel('Rows per page').selectOption('10');
    await pages.getByText(`1–10 of ${total}`).waitFor();
    expect(path()).toBe('/pins?size=10');
    await pages.getByRole('button', { name: 'Next page' }).click();
    await pages.getByText(`11–20 of ${total}`).waitFor();
    expect(path()).toBe('/pins?size=10&page=2');
    await pages.getByRole('button', { name: 'Last page' }).click();
    const lastPage = Math.ceil(total / 10);
    await pages.getByText(`Page ${lastPage} of ${lastPage}`).waitFor();
    // The oldest pin (added by the test before) is last on the last page.
    await rows().last().filter({ hasText: 'Arrives later.txt' }).waitFor();
    expect(await pages.getByRole('button', { name: 'Next page' }).isDisabled()).toBe(true);

    // Reload and Back keep the page.
    await page.reload();
    await pages.getByText(`Page ${lastPage} of ${lastPage}`).waitFor();
    await page.goBack();
    await pages.getByText(`11–20 of ${total}`).waitFor();
  });

  it('searches names as you type, once typing pauses, and drops the stale request', async () => {
    await signIn(page, service);
    await openPins();
    const asked: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/api/v0/pin' && url.searchParams.has('name')) asked.push(url.searchParams.get('name') ?? '');
    });
    await search().pressSequentially('REPORT 1', { delay: 20 });
    const expected = await listTotal({ status: 'active', name: 'report 1' });
    await summary().getByText(`${expected} active pins whose name contains “REPORT 1”.`).waitFor();
    expect(await rows().count()).toBe(expected);
    expect(asked.at(-1)).toBe('REPORT 1');
    // Debounced: fewer requests than keystrokes.
    expect(asked.length).toBeLessThan('REPORT 1'.length);
    expect(path()).toBe('/pins?name=REPORT+1');

    // A slow answer for a query the user already changed is aborted, and never shown.
    await page.route(
      (url) => url.pathname === '/api/v0/pin' && url.searchParams.get('name') === 'photo',
      async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 1500));
        await route.continue().catch(() => undefined);
      },
    );
    const stale = page.waitForEvent('requestfailed', (request) => new URL(request.url()).searchParams.get('name') === 'photo');
    await search().fill('photo');
    await page.waitForRequest((request) => new URL(request.url()).searchParams.get('name') === 'photo');
    await search().fill('photo 2');
    expect((await stale).failure()?.errorText).toContain('ERR_ABORTED');
    await summary()
      .getByText(`${await listTotal({ status: 'active', name: 'photo 2' })} active pins whose name contains “photo 2”.`)
      .waitFor();

    // No match: the empty table says so and offers to clear.
    await search().fill('no such pin at all');
    await page.getByText('No pins match').waitFor();
    await axeCheck(page, 'Pins, no match');
    await page.getByRole('button', { name: 'Clear search and filter' }).click();
    await summary()
      .getByText(/^\d+ active pins\.$/)
      .waitFor();
    expect(await search().inputValue()).toBe('');
    expect(path()).toBe('/pins');
  });

  it('finds a pin by its CID in either spelling, and filters by status', async () => {
    await signIn(page, service);
    await openPins(`?cid=${EMPTY_DIR_V1}`);
    await row('empty folder').waitFor();
    expect(await rows().count()).toBe(1);
    expect(await summary().textContent()).toContain('1 pin with CID');
    // The row shows the spelling it was pinned with.
    expect(await row('empty folder').textContent()).toContain(EMPTY_DIR_V0.slice(0, 10));
    await search().fill(reports[3]?.cid ?? '');
    await row('report 3').waitFor();
    expect(await rows().count()).toBe(1);
    expect(path()).toBe(`/pins?cid=${reports[3]?.cid ?? ''}`);

    await search().fill('');
    await page.getByLabel('Status').selectOption('pinning');
    const pinning = await listTotal({ status: 'pinning' });
    await summary().getByText(`${pinning} pinning pins.`).waitFor();
    expect(path()).toBe('/pins?status=pinning');
    await page.reload();
    await summary().getByText(`${pinning} pinning pins.`).waitFor();
    expect(await page.getByLabel('Status').inputValue()).toBe('pinning');
    await search().fill('photo 1');
    await summary()
      .getByText(`${await listTotal({ status: 'pinning', name: 'photo 1' })} pinning pins whose name contains “photo 1”.`)
      .waitFor();
  });

  it('opens /pins?cid=<cid> (the ipfs:// handler) filtered to that CID; the URL follows the box in place, so reload and Back keep it', async () => {
    const target = reports[2];
    if (!target) throw new Error('no report 2');
    await signIn(page, service);
    await openPins(`?cid=${target.cid}`);
    await summary()
      .getByText(/^1 pin with CID/)
      .waitFor();
    await row(target.name).waitFor();
    expect(await rows().count()).toBe(1);
    expect(await search().inputValue()).toBe(target.cid);

    // The box leads: a name replaces the CID in the URL, in the same history entry.
    await search().fill('report 1');
    await summary()
      .getByText(/whose name contains “report 1”/)
      .waitFor();
    expect(path()).toBe('/pins?name=report+1');
    await page.reload();
    await summary()
      .getByText(/whose name contains “report 1”/)
      .waitFor();
    expect(await search().inputValue()).toBe('report 1');
    // Back leaves the page (typing left no entries behind), Forward comes back to the search.
    await page.goBack();
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    await page.goForward();
    await summary()
      .getByText(/whose name contains “report 1”/)
      .waitFor();
    expect(await search().inputValue()).toBe('report 1');

    // Clear search and filter ends the search.
    await page.getByRole('button', { name: 'Clear search and filter' }).click();
    await summary()
      .getByText(/^\d+ active pins\.$/)
      .waitFor();
    expect(path()).toBe('/pins');
    expect(await search().inputValue()).toBe('');
    expect(await page.getByRole('button', { name: 'Clear search and filter' }).count()).toBe(0);
  });

  it('renames a pin where it is shown: Enter saves, Escape cancels, a refusal is shown under the field', async () => {
    const target = reports[5];
    if (!target) throw new Error('no report 5');
    await signIn(page, service);
    await openPins(`?name=${encodeURIComponent(target.name)}`);
    const rename = page.getByRole('button', { name: `Rename ${target.name}`, exact: true });
    await rename.click();
    const field = page.getByRole('textbox', { name: `Name of ${target.name}` });
    await field.fill('will not be kept');
    await page.keyboard.press('Escape');
    await field.waitFor({ state: 'detached' });
    await page.locator('button:focus', { hasText: '' }).and(rename).waitFor();
    expect((await pinRecord(target.cid)).pin?.name).toBe(target.name);

    await page.route('**/api/v0/pin/rename*', (route) =>
      route.fulfill({ status: 409, contentType: 'application/json', body: JSON.stringify({ code: 409, msg: 'the pin changed meanwhile' }) }),
    );
    await rename.click();
    await field.fill('quarterly report 5');
    await page.keyboard.press('Enter');
    await page.getByRole('alert').filter({ hasText: 'The pin changed meanwhile.' }).waitFor();
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    await axeCheck(page, 'Pins, rename refused');
    await screenshots(page, 'pins-rename-error');
    expect((await pinRecord(target.cid)).pin?.name).toBe(target.name);

    await page.unroute('**/api/v0/pin/rename*');
    await page.getByRole('button', { name: 'Save' }).click();
    await row('quarterly report 5').waitFor();
    expect((await pinRecord(target.cid)).pin?.name).toBe('quarterly report 5');
    // Focus is back on the pencil of the row.
    await page
      .locator('button:focus')
      .and(page.getByRole('button', { name: 'Rename quarterly report 5' }))
      .waitFor();
    target.name = 'quarterly report 5';
  });

  it('unpins after a confirmation that can be cancelled, and Pin again takes it back', async () => {
    const target = reports[7];
    if (!target) throw new Error('no report 7');
    await signIn(page, service);
    await openPins(`?name=${encodeURIComponent(target.name)}`);
    const unpin = page.getByRole('button', { name: `Unpin ${target.name}` });
    await unpin.click();
    const dialog = page.getByRole('dialog', { name: `Unpin ${target.name}?` });
    await dialog.locator('button:focus', { hasText: 'Cancel' }).waitFor();
    await axeCheck(page, 'Unpin dialog');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect((await pinRecord(target.cid)).pin?.status).toBe('pinned');

    await unpin.click();
    await dialog.getByRole('button', { name: 'Unpin' }).click();
    await dialog.waitFor({ state: 'hidden' });
    // Active, the default, lists what the account keeps: the pin leaves it, and All shows it.
    await row(target.name).waitFor({ state: 'detached' });
    expect((await pinRecord(target.cid)).pin?.status).toBe('unpinning');
    await page.getByLabel('Status').selectOption('all');
    await row(target.name).getByText('Unpinning').waitFor();

    await page.getByRole('button', { name: `Pin ${target.name} again` }).click();
    await row(target.name).getByText('Pinned').waitFor();
    expect((await pinRecord(target.cid)).pin?.status).toBe('pinned');
  });

  it('copies a CID and opens the content in a new tab through the gateway worker, never with the secret in a URL', async () => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const urls: string[] = [];
    context.on('request', (request) => urls.push(request.url()));
    await signIn(page, service);
    await openPins();
    await row(notes.name).getByRole('button', { name: 'Copy CID' }).click();
    await row(notes.name).getByText(`Copied CID`).waitFor();
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(notes.cid);

    // Open is a plain link (middle-click and Copy link work); the worker adds the window's key to the navigation.
    const open = row(notes.name).getByRole('link', { name: `Open ${notes.name} in a new tab` });
    expect(await open.getAttribute('href')).toBe(`/ipfs/${notes.cid}?filename=${notes.name}`);
    const [tab] = await Promise.all([context.waitForEvent('page'), open.click()]);
    await tab.getByText(notes.text.trim()).waitFor();
    expect(await tab.locator('body').textContent()).toBe(notes.text);
    expect(await tab.evaluate<boolean>('window.opener === null')).toBe(true);
    await tab.close();

    // A pin not held yet (pinning) offers no Open: there is nothing to show.
    await openPins(`?name=${encodeURIComponent(waiting[0]?.name ?? '')}`);
    expect(
      await row(waiting[0]?.name ?? '')
        .getByRole('link', { name: /^Open / })
        .count(),
    ).toBe(0);

    const secrets = [service.owner.access_secret, ...(await page.evaluate<string[]>('Object.values(sessionStorage)'))];
    expect(urls.filter((url) => secrets.some((secret) => secret.length > 20 && url.includes(secret)))).toEqual([]);
  });

  it('says why Open cannot show content where the browser runs no service worker (not a localhost address)', async () => {
    // As in a window opened at a LAN address: no secure context, so no service worker to add the key.
    await context.addInitScript('delete Navigator.prototype.serviceWorker;');
    await signIn(page, service);
    await openPins(`?name=${notes.name}`);
    const tabs: Page[] = [];
    context.on('page', (tab) => tabs.push(tab));
    await row(notes.name)
      .getByRole('button', { name: `Open ${notes.name} in a new tab` })
      .click();
    await row(notes.name)
      .getByRole('alert')
      .filter({
        hasText: 'Open needs this window at a localhost address, where the browser adds its key to the link, or the service started with --public-gateway.',
      })
      .waitFor();
    expect(tabs).toEqual([]);
    // The option stays on one line: as code, not broken after its first hyphen.
    expect(await row(notes.name).getByRole('alert').locator('code').textContent()).toBe('--public-gateway');
    await axeCheck(page, 'Pins, Open refused');
    await screenshots(page, 'pins-open-refused');
  });

  it('shows pins added and removed by another client without a reload', async () => {
    await signIn(page, service);
    await openPins();
    const cid = await cidOf(encoder.encode('added by a script\n'));
    await pin(cid, 'added by a script');
    await rows().first().filter({ hasText: 'added by a script' }).waitFor();
    await rows().first().getByText('Pinning').waitFor();
    expect(await service.call('POST', '/api/v0/pin/rm', { query: { arg: cid } })).toMatchObject({ status: 200 });
    // It leaves the Active list at once; All shows it unpinning until GC removes it.
    await row('added by a script').waitFor({ state: 'detached' });
    await page.getByLabel('Status').selectOption('all');
    await row('added by a script').getByText('Unpinning').waitFor();
    expect(await service.call('POST', '/api/v0/repo/gc')).toMatchObject({ status: 200 });
    await row('added by a script').waitFor({ state: 'detached' });
  });

  it('works from the keyboard: / to search, the rename field, the page buttons', async () => {
    await signIn(page, service);
    await openPins();
    await page.keyboard.press('/');
    await page.locator('input:focus').and(search()).waitFor();
    await page.keyboard.type('report 1');
    await page.keyboard.press('Enter');
    await summary()
      .getByText(/whose name contains “report 1”/)
      .waitFor();
    // Tab from the search box reaches the status filter, then the table's controls.
    await page.keyboard.press('Tab');
    await page.locator('select:focus').waitFor();
  });

  it('shows why the list could not load, with Retry, and recovers', async () => {
    await signIn(page, service);
    await page.route('**/api/v0/pin?*', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ code: 500, msg: 'database is locked' }) }),
    );
    await page.goto(`${service.url}/pins`);
    const error = table().getByRole('alert').filter({ hasText: 'The service failed (500): database is locked.' });
    await error.waitFor();
    await axeCheck(page, 'Pins with an error');
    await screenshots(page, 'pins-error');
    await page.unroute('**/api/v0/pin?*');
    await error.getByRole('button', { name: 'Retry' }).click();
    await rows().first().waitFor();
  });
});

describe('Pins of an account on the Free plan', () => {
  it('says so when the plan allows no more pins, and pins nothing', async () => {
    const user = await freeUser(service);
    for (let i = 0; i < 100; i++) await pin(await cidOf(encoder.encode(`free user pin ${i}`)), `free ${i}`, user.key);
    expect(await listTotal({}, user.key)).toBe(100);
    await page.goto(`${service.url}/pins`);
    await signInWithKey(page, user.key);
    await heading().waitFor();
    await summary().getByText('100 active pins.').waitFor();
    await page.getByRole('button', { name: 'Add pin' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add pin' });
    await dialog.getByLabel('CID').fill(await cidOf(encoder.encode('one too many')));
    await dialog.getByRole('button', { name: 'Add pin' }).click();
    await dialog.getByRole('alert').filter({ hasText: "Your plan's limit on pins is reached." }).waitFor();
    expect(await listTotal({}, user.key)).toBe(100);
  });
});

describe('Pins: sync folder versions, pins being removed, narrow windows (issue 26)', () => {
  let version: PinRecord;
  let label: string;
  let folder: string;

  beforeAll(async () => {
    folder = join(await mkdtemp(join(tmpdir(), 'pinfold-e2e-pins-')), 'notes');
    await mkdir(folder);
    await writeFile(join(folder, 'a.txt'), 'a note\n');
    const added = await service.call<{ data: { root: string } }>('POST', '/api/v0/sync/add', { body: { path: folder, ipns: false } });
    expect(added.status, added.text).toBe(200);
    const record = await pinRecord(added.json.data.root);
    if (!record.pin) throw new Error('the sync folder pinned no version');
    version = record.pin;
    label = `notes · ${formatShortMoment(version.created_at, Date.now())}`;
  });

  it("reads a sync folder's version pin as the folder's name and the version's time, the path in its tooltip", async () => {
    expect(version.name).toBe(`sync ${folder}`);
    await signIn(page, service);
    await openPins(`?cid=${version.cid}`);
    const shown = rows().first();
    await shown.getByText(label, { exact: true }).waitFor();
    await shown.getByText('Sync folder version').waitFor();
    expect(await shown.locator('[title]').filter({ hasText: label }).getAttribute('title')).toBe(`sync ${folder}`);
    // Its actions are named by it too.
    await shown.getByRole('button', { name: `Unpin ${label}` }).waitFor();
    await axeCheck(page, 'Pins, a sync folder version');
    await screenshots(page, 'pins-sync-version');
  });

  it('hides unpinning pins under Active, the default; All shows them with when they go', async () => {
    const cid = await cidOf(encoder.encode('unpinned by a script\n'));
    await pin(cid, 'unpinned by a script');
    expect(await service.call('POST', '/api/v0/pin/rm', { query: { arg: cid } })).toMatchObject({ status: 200 });
    const facts = await service.call<{ data: ServiceFacts }>('GET', '/api/v0/service');
    const every = formatDuration(facts.json.data.gc_interval_seconds);

    await signIn(page, service);
    await page.goto(`${service.url}/pins?name=unpinned+by+a+script`);
    await page.getByText('No pins match').waitFor();
    const filter = page.getByRole('combobox', { name: 'Status' });
    expect(await filter.inputValue()).toBe('active');
    expect(await summary().textContent()).toBe('No active pins whose name contains “unpinned by a script”.');

    await filter.selectOption('all');
    expect(path()).toBe('/pins?name=unpinned+by+a+script&status=all');
    const gone = row('unpinned by a script');
    await gone.getByText('Unpinning').waitFor();
    await gone.getByText(`Goes at the next garbage collection (every ${every}).`).waitFor();
    await gone.getByRole('button', { name: 'Pin unpinned by a script again' }).waitFor();
    await axeCheck(page, 'Pins, all, an unpinning pin');
    await screenshots(page, 'pins-unpinning');
  });

  it('keeps every row action reachable at 480 pixels, behind a menu button named after the row', async () => {
    await signIn(page, service);
    await openPins(`?cid=${version.cid}`);
    const shown = rows().first();
    const menuButton = shown.getByRole('button', { name: `Actions for ${label}` });
    // Wide: the actions side by side, no menu.
    expect(await menuButton.count()).toBe(0);

    await page.setViewportSize({ width: 480, height: 860 });
    await menuButton.waitFor();
    expect(await shown.getByRole('button', { name: `Unpin ${label}` }).count()).toBe(0);
    expect(await menuButton.getAttribute('aria-expanded')).toBe('false');
    await menuButton.click();
    const menu = page.getByRole('group', { name: `Actions for ${label}` });
    await menu.getByRole('link', { name: `Open ${label} in a new tab` }).waitFor();
    expect(await menuButton.getAttribute('aria-expanded')).toBe('true');
    // Every action fits in the window.
    const box = await menu.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 480).toBe(true);
    await axeCheck(page, 'Pins at 480, a row menu open');
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'pins-row-menu-light-480.png') });

    // Escape closes it, focus back on its button.
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    await page.locator('button:focus').and(menuButton).waitFor();

    await menuButton.click();
    await menu.getByRole('button', { name: `Unpin ${label}` }).click();
    await menu.waitFor({ state: 'detached' });
    const dialog = page.getByRole('dialog', { name: `Unpin ${label}?` });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect((await pinRecord(version.cid)).pin?.status).toBe('pinned');
  });
});
