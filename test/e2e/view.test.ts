/**
 * The view page (`/view?path=/ipfs/…`) in real Chromium against `pinfold serve`: content shown in a frame
 * through the gateway worker (a text file, an image, a directory whose listing's links work), an uploaded
 * page whose script must not run nor reach the window's credentials, bad addresses, the sign-in link with
 * `next` that the desktop app opens for an ipfs:// link, a window with no service worker (with and without
 * a public gateway), the keyboard, axe and screenshots. Needs the built renderer (`npx vite build`).
 */
import { readFile } from 'node:fs/promises';
import type { Browser, BrowserContext, FrameLocator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { viewPagePath } from '../../renderer/lib/view-path.js';
import { dagAdd, EMPTY_DIR_V1 } from '../integration/uploads-helpers.js';
import { axeCheck, launchBrowser, newContext, screenshots, signIn, startService, type E2eService } from './kit/index.js';

const NOT_RUN = 'script did not run';
/** The user content's frame: not the window's to check with axe (kit/a11y.ts), named by its title instead. */
const FRAME = 'iframe.view-frame';
/** What the uploaded page's script would do: read the window's storage, itself and through its parent. */
const STEAL = `
  var report = document.getElementById('report');
  try {
    report.textContent = 'own=' + sessionStorage.getItem('pinfold.credentials') + ' parent=' + parent.sessionStorage.getItem('pinfold.credentials')
      + ' local=' + JSON.stringify(Object.entries(localStorage)) + ' title=' + parent.document.title;
  } catch (error) {
    report.textContent = 'storage denied: ' + error.name;
  }
`;
const PAGE = `<!DOCTYPE html><html><head><title>user page</title></head><body><p id="report">${NOT_RUN}</p><script>${STEAL}</script></body></html>`;
const NOTES = 'Notes from the view page test.\nSecond line.\n';

let service: E2eService;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let root: string;
let png: Uint8Array;

beforeAll(async () => {
  service = await startService();
  browser = await launchBrowser();
  png = new Uint8Array(await readFile(new URL('../../build/icons/128x128.png', import.meta.url)));
  const files: Array<[string, Uint8Array]> = [
    ['notes.txt', new TextEncoder().encode(NOTES)],
    ['logo.png', png],
    ['page.html', new TextEncoder().encode(PAGE)],
    ['docs/read me.txt', new TextEncoder().encode('inside docs\n')],
  ];
  root = EMPTY_DIR_V1;
  for (const [path, bytes] of files) {
    const added = await dagAdd(service, service.owner, root, path, bytes);
    expect(added.status, added.text).toBe(201);
    root = added.headers.get('ipfs-hash') ?? '';
  }
  expect(await service.call('POST', '/api/v0/pin/add', { query: { arg: root, name: 'view test' } })).toMatchObject({ status: 200 });
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

const heading = (name: string) => page.getByRole('heading', { level: 1, name });
const frameOf = (path: string): FrameLocator => page.frameLocator(`iframe[title="Content of ${path}"]`);
const address = () => new URL(page.url()).pathname + new URL(page.url()).search;

async function view(path: string): Promise<void> {
  await page.goto(`${service.url}${viewPagePath(path)}`);
}

/** The frame's document as it is now (DevTools reads it whatever the document's own policy says). */
async function frameDocument(): Promise<{ url: string; text: string }> {
  const frame = page.frames().find((candidate) => candidate !== page.mainFrame());
  if (!frame) throw new Error('no frame');
  return { url: frame.url(), text: (await frame.evaluate<string>('document.body ? document.body.innerText : ""')).trim() };
}

describe('content in the frame', () => {
  it('shows a text file and an image, named in the heading, with the path to copy and Open in new tab', async () => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const urls: string[] = [];
    context.on('request', (request) => urls.push(request.url()));
    await signIn(page, service);
    const notes = `/ipfs/${root}/notes.txt`;
    await view(notes);
    await heading('notes.txt').waitFor();
    expect(await page.title()).toBe('notes.txt · Pinfold');
    await frameOf(notes).getByText('Notes from the view page test.').waitFor();
    expect(await frameOf(notes).locator('body').textContent()).toBe(NOTES);
    expect(await page.locator('.view-path-text').textContent()).toBe(notes);
    // The heading is the file's name, its path inside the root under it, then the CID in full (issue 26).
    expect(await page.locator('.page-header').textContent()).toContain('notes.txt/notes.txt');
    expect(await page.locator('.view-root-text').textContent()).toBe(root);
    await page.getByRole('button', { name: 'Copy CID' }).click();
    await page.getByRole('status').filter({ hasText: 'Copied CID' }).waitFor();
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(root);
    await page.getByRole('button', { name: 'Copy content path' }).click();
    await page.getByRole('status').filter({ hasText: 'Copied content path' }).waitFor();
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(notes);
    // Not in the navigation: no item is current.
    expect(await page.getByRole('navigation', { name: 'Main' }).locator('[aria-current="page"]').count()).toBe(0);

    const open = page.getByRole('link', { name: 'Open in new tab: notes.txt' });
    expect(await open.getAttribute('href')).toBe(notes);
    const [tab] = await Promise.all([context.waitForEvent('page'), open.click()]);
    await tab.getByText('Notes from the view page test.').waitFor();
    await tab.close();
    await axeCheck(page, 'View, a text file', { exclude: [FRAME] });
    await screenshots(page, 'view-file');

    const logo = `/ipfs/${root}/logo.png`;
    await view(logo);
    await heading('logo.png').waitFor();
    const image = frameOf(logo).locator('img');
    await image.waitFor();
    await expect.poll(() => image.evaluate((element: unknown) => (element as { naturalWidth: number }).naturalWidth)).toBe(128);

    // A file deeper in: its name is the heading, the path to it (decoded) the line under it.
    const inside = `/ipfs/${root}/docs/read%20me.txt`;
    await view(inside);
    await heading('read me.txt').waitFor();
    expect(await page.locator('.page-description').textContent()).toBe('/docs/read me.txt');
    expect(await page.locator('.view-root-text').textContent()).toBe(root);
    await axeCheck(page, 'View, a file in a folder', { exclude: [FRAME] });
    await screenshots(page, 'view-nested');

    const secrets = [service.owner.access_secret, ...(await page.evaluate<string[]>('Object.values(sessionStorage)'))];
    expect(urls.filter((url) => secrets.some((secret) => secret.length > 20 && url.includes(secret)))).toEqual([]);
  });

  it('shows a directory, and a click on a listing link shows the file inside the frame', async () => {
    await signIn(page, service);
    // As an ipfs://<cid> link gives it: no trailing slash, which the gateway redirects to.
    const directory = `/ipfs/${root}`;
    await view(directory);
    await heading(`${root.slice(0, 10)}…${root.slice(-6)}`).waitFor();
    const frame = frameOf(directory);
    await frame.getByRole('heading', { name: /Index of/ }).waitFor();
    await frame.getByRole('link', { name: 'docs' }).click();
    await frame.getByRole('link', { name: 'read me.txt' }).click();
    await frame.getByText('inside docs').waitFor();
    expect(await frameDocument()).toEqual({ url: `${service.url}/ipfs/${root}/docs/read%20me.txt`, text: 'inside docs' });
    // The window stays where it was.
    expect(address()).toBe(viewPagePath(directory));

    await view(`${directory}/`);
    await frameOf(`${directory}/`).getByRole('link', { name: 'notes.txt' }).waitFor();
    await axeCheck(page, 'View, a directory', { exclude: [FRAME] });
    await screenshots(page, 'view-directory');
  });

  it("runs no script of an uploaded page, which reaches nothing of the window's credentials", async () => {
    await signIn(page, service);
    const html = `/ipfs/${root}/page.html`;
    await view(html);
    await heading('page.html').waitFor();
    const report = frameOf(html).locator('#report');
    await report.waitFor();
    expect(await report.textContent()).toBe(NOT_RUN);
    const frame = page.frames().find((candidate) => candidate.url().endsWith('/page.html'));
    if (!frame) throw new Error('the page is not in a frame');
    // Asked through DevTools, which the document's policy does not govern: an opaque origin, no storage.
    const seen = await frame.evaluate<string>(
      `(() => { const read = (what) => { try { return String(what()); } catch (error) { return 'denied: ' + error.name; } };
        return [read(() => sessionStorage.getItem('pinfold.credentials')), read(() => parent.sessionStorage.getItem('pinfold.credentials')), read(() => parent.document.title), read(() => origin)].join(' | '); })()`,
    );
    expect(seen).toBe('denied: SecurityError | denied: SecurityError | denied: SecurityError | null');
    // The window still has its session.
    expect(await page.evaluate<string | null>('sessionStorage.getItem("pinfold.credentials")')).toContain('"session":true');
  });
});

describe('addresses', () => {
  it('refuses an address that is not content on this service, with one sentence and a way on', async () => {
    await signIn(page, service);
    const cases: Array<[string | null, string]> = [
      [null, 'This address names no content to show.'],
      [`https://evil.example/ipfs/${root}`, 'Only content on this service can be shown here.'],
      [`//evil.example/ipfs/${root}`, 'Only content on this service can be shown here.'],
      [`/ipfs/${root}/docs/../../x`, 'This content address climbs out of its root (. or .. in the path).'],
      [`/ipfs/${root}/%2e%2e/x`, 'This content address climbs out of its root (. or .. in the path).'],
      ['/ipfs/not-a-cid', 'not-a-cid is not a valid CID.'],
      ['/ipns/not a name', 'not a name is not an IPNS name or a domain.'],
      ['/api/v0/stats', 'The address must name content as /ipfs/<CID> or /ipns/<name>, optionally followed by a path inside it.'],
    ];
    for (const [path, message] of cases) {
      await page.goto(`${service.url}${path === null ? '/view' : viewPagePath(path)}`);
      await heading('Cannot show this content').waitFor();
      await page.getByText(message, { exact: true }).waitFor();
      expect(await page.locator('iframe').count(), String(path)).toBe(0);
    }
    await axeCheck(page, 'View, a bad address');
    await screenshots(page, 'view-error');
    await page.getByRole('link', { name: 'Go to Pins' }).click();
    await heading('Pins').waitFor();
  });

  it('a sign-in link with next lands on the view signed in, the code gone from the address bar', async () => {
    const notes = `/ipfs/${root}/notes.txt`;
    const link = await service.signInLink();
    await page.goto(`${link}&next=${encodeURIComponent(viewPagePath(notes))}`);
    await heading('notes.txt').waitFor();
    await frameOf(notes).getByText('Notes from the view page test.').waitFor();
    expect(address()).toBe(viewPagePath(notes));
    expect(await page.evaluate<string>('location.href')).not.toContain('code=');
    expect(await page.evaluate<string | null>('sessionStorage.getItem("pinfold.credentials")')).toContain('"session":true');
    // The sign-in address with the code is not in the tab's history either.
    await page.goBack();
    expect(page.url()).not.toContain('code=');
  });

  it('a sign-in link whose next leaves the app lands on the Overview', async () => {
    for (const next of ['https://evil.example/', '//evil.example/view', '/api/v0/stats']) {
      const tab = await context.newPage();
      await tab.goto(`${await service.signInLink()}&next=${encodeURIComponent(next)}`);
      await tab.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
      expect(new URL(tab.url()).origin + new URL(tab.url()).pathname).toBe(`${service.url}/overview`);
      await tab.close();
    }
  });
});

describe('where no gateway worker runs', () => {
  it('says why the content cannot be shown (not a localhost address), and shows nothing', async () => {
    // As in a window opened at a LAN address: no secure context, so no service worker to add the key.
    await context.addInitScript('delete Navigator.prototype.serviceWorker;');
    await signIn(page, service);
    await view(`/ipfs/${root}/notes.txt`);
    await heading('notes.txt').waitFor();
    const alert = page.getByRole('alert').filter({ hasText: 'Open needs this window at a localhost address' });
    await alert.waitFor();
    expect(await alert.textContent()).toContain('Copy the path instead.');
    expect(await alert.locator('code').textContent()).toBe('--public-gateway');
    expect(await page.locator('iframe').count()).toBe(0);
    expect(await page.getByRole('link', { name: /^Open in new tab/ }).count()).toBe(0);
    await page.getByRole('button', { name: 'Copy content path' }).waitFor();
    await axeCheck(page, 'View, no worker');
    await screenshots(page, 'view-no-worker');
  });

  it('shows the content when the gateway is public', async () => {
    const open = await startService(['--public-gateway']);
    try {
      const added = await dagAdd(open, open.owner, EMPTY_DIR_V1, 'notes.txt', new TextEncoder().encode(NOTES));
      expect(added.status, added.text).toBe(201);
      const notes = `/ipfs/${added.headers.get('ipfs-hash') ?? ''}/notes.txt`;
      await context.addInitScript('delete Navigator.prototype.serviceWorker;');
      await signIn(page, open);
      await page.goto(`${open.url}${viewPagePath(notes)}`);
      await frameOf(notes).getByText('Notes from the view page test.').waitFor();
      expect(await page.getByRole('link', { name: 'Open in new tab: notes.txt' }).getAttribute('href')).toBe(notes);
    } finally {
      await open.dispose();
    }
  });
});

describe('keyboard', () => {
  it('reaches Open in new tab, Copy and the frame in order, and the listing inside it', async () => {
    await signIn(page, service);
    const directory = `/ipfs/${root}/`;
    await view(directory);
    await frameOf(directory).getByRole('link', { name: 'notes.txt' }).waitFor();
    await page.getByRole('heading', { level: 1 }).focus();
    const focused = () =>
      page.evaluate<string>(
        '(() => { const el = document.activeElement; return el ? el.tagName + ":" + (el.getAttribute("aria-label") ?? el.getAttribute("title") ?? "") : ""; })()',
      );
    await page.keyboard.press('Tab');
    expect(await focused()).toBe(`A:Open in new tab: ${root.slice(0, 10)}…${root.slice(-6)}`);
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('BUTTON:Copy CID');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('BUTTON:Copy content path');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe(`IFRAME:Content of ${directory}`);
    // Inside the frame: its first link, then Enter follows it.
    await page.keyboard.press('Tab');
    const inner = page.frames().find((candidate) => candidate !== page.mainFrame());
    const innerFocus = await inner?.evaluate<string>('document.activeElement ? document.activeElement.textContent : ""');
    expect(innerFocus?.length).toBeGreaterThan(0);
  });
});
