/**
 * Issue 22, item 3: the window's gateway worker (renderer/public/gateway-sw.js) adds the signed-in key only
 * to navigations the window itself started. A page on another origin (a second local HTTP server) that
 * links or submits a GET form to owner-only content on the service gets the gateway's refusal, not the
 * content, and costs the owner nothing: no egress counted, no DNSLink look-up of a domain it chose. The
 * window's own View and Open still show the content, a folder's redirect to its trailing slash, the links
 * of its listing, Back and Reload included. Real Chromium against `pinfold serve`; needs the built renderer.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { viewPagePath } from '../../renderer/lib/view-path.js';
import type { AccountUsage } from '../../shared/api-types.js';
import { addDnsLink, startDnsServer, type TestDnsServer } from '../helpers/dns-server.js';
import { dagAdd, EMPTY_DIR_V1 } from '../integration/uploads-helpers.js';
import { launchBrowser, newContext, signIn, startService, type E2eService } from './kit/index.js';

const NOTES = 'Owner-only notes: only the window opens these.\n';
const DOMAIN = 'outsider.example';

let service: E2eService;
let dns: TestDnsServer;
let browser: Browser;
let context: BrowserContext;
let window: Page;
let root: string;
let outsider: Server;
let outsiderUrl: string;

/** The other site's page: a link opening a new tab, a GET form, a link to an IPNS domain, a link to the folder. */
function outsiderPage(): string {
  const file = `${service.url}/ipfs/${root}/notes.txt`;
  return `<!DOCTYPE html><html><head><title>another site</title></head><body>
    <a id="link" href="${file}" target="_blank">notes</a>
    <form id="form" method="GET" action="${file}" target="_blank"><input type="hidden" name="filename" value="notes.txt"><button id="submit">open</button></form>
    <a id="domain" href="${service.url}/ipns/${DOMAIN}/notes.txt" target="_blank">by domain</a>
    <a id="folder" href="${service.url}/ipfs/${root}" target="_blank">folder</a>
    <a id="folder-quietly" href="${service.url}/ipfs/${root}" target="_blank" rel="noreferrer">folder, no referrer</a>
  </body></html>`;
}

beforeAll(async () => {
  dns = await startDnsServer();
  service = await startService(['--dns-resolver', dns.address]);
  browser = await launchBrowser();
  const added = await dagAdd(service, service.owner, EMPTY_DIR_V1, 'notes.txt', new TextEncoder().encode(NOTES));
  expect(added.status, added.text).toBe(201);
  root = added.headers.get('ipfs-hash') ?? '';
  addDnsLink(dns, DOMAIN, `/ipfs/${root}`);
  outsider = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(outsiderPage());
  });
  await new Promise<void>((resolve) => outsider.listen(0, '127.0.0.1', resolve));
  outsiderUrl = `http://127.0.0.1:${(outsider.address() as AddressInfo).port}/`;
});

afterAll(async () => {
  await browser?.close();
  await service?.dispose();
  await dns?.close();
  await new Promise((resolve) => outsider?.close(resolve));
});

beforeEach(async () => {
  context = await newContext(browser);
  window = await context.newPage();
});

afterEach(async () => {
  await context.close();
});

async function egress(): Promise<number> {
  const answer = await service.call<{ data: AccountUsage }>('GET', '/api/v0/stats');
  expect(answer.status, answer.text).toBe(200);
  return answer.json.data.egress;
}

/** Signs the window in and waits until its gateway worker controls both scopes, so it could sign a navigation. */
async function signInWithWorker(): Promise<void> {
  await signIn(window, service);
  await expect.poll(() => window.evaluate<number>('navigator.serviceWorker.getRegistrations().then((all) => all.filter((one) => one.active).length)')).toBe(2);
}

/** Clicks `selector` on `from`, which opens a new tab; answers the tab once loaded, with its status and text. */
async function openedTab(from: Page, selector: string): Promise<{ tab: Page; status: number; text: string }> {
  const [tab] = await Promise.all([context.waitForEvent('page'), from.click(selector)]);
  await tab.waitForLoadState('load');
  const status = await tab.evaluate<number>('performance.getEntriesByType("navigation")[0].responseStatus');
  const text = await tab.evaluate<string>('document.body ? document.body.innerText : ""');
  return { tab, status, text };
}

describe('navigations another site starts', () => {
  it('a link and a GET form to owner-only content are refused, count no egress and resolve no domain', async () => {
    await signInWithWorker();
    const before = await egress();
    const page = await context.newPage();
    await page.goto(outsiderUrl);
    for (const selector of ['#link', '#submit', '#domain', '#folder', '#folder-quietly']) {
      const { tab, status, text } = await openedTab(page, selector);
      expect(status, selector).toBeGreaterThanOrEqual(400);
      expect(status, selector).toBeLessThan(500);
      expect(text, selector).not.toContain('Owner-only notes');
      expect(text, selector).not.toContain('Index of');
      await tab.close();
    }
    expect(dns.queries.filter((host) => host.includes(DOMAIN))).toEqual([]);
    expect(await egress()).toBe(before);
    // The window is still signed in and its worker still there: the refusals were the worker's choice.
    expect(await window.evaluate<string | null>('sessionStorage.getItem("pinfold.credentials")')).toContain('"session":true');
  });
});

describe("the window's own navigations", () => {
  it('View and Open show a folder (its redirect, its listing links, Back and Reload too); the same address from another site is refused', async () => {
    await signInWithWorker();
    // As an ipfs://<cid> link gives it: no trailing slash, which the gateway redirects to.
    const folder = `/ipfs/${root}`;
    await window.goto(`${service.url}${viewPagePath(folder)}`);
    const frame = window.frameLocator(`iframe[title="Content of ${folder}"]`);
    await frame.getByRole('link', { name: 'notes.txt' }).click();
    await frame.getByText('Owner-only notes').waitFor();

    const before = await egress();
    const [tab] = await Promise.all([context.waitForEvent('page'), window.getByRole('link', { name: /^Open in new tab/ }).click()]);
    await tab.getByRole('heading', { name: /Index of/ }).waitFor();
    expect(new URL(tab.url()).pathname).toBe(`${folder}/`);
    await tab.getByRole('link', { name: 'notes.txt' }).click();
    await tab.getByText('Owner-only notes').waitFor();
    expect(new URL(tab.url()).pathname).toBe(`${folder}/notes.txt`);
    await expect.poll(egress).toBeGreaterThan(before);
    // Back, Reload and Forward of the window's pages keep working.
    await tab.goBack();
    await tab.getByRole('heading', { name: /Index of/ }).waitFor();
    await tab.reload();
    await tab.getByRole('heading', { name: /Index of/ }).waitFor();
    await tab.goForward();
    await tab.getByText('Owner-only notes').waitFor();

    // The window opened this address; another site opening it now gets no key, with a referrer or without.
    const page = await context.newPage();
    await page.goto(outsiderUrl);
    for (const selector of ['#folder', '#folder-quietly']) {
      const { status, text } = await openedTab(page, selector);
      expect(status, selector).toBeGreaterThanOrEqual(400);
      expect(text, selector).not.toContain('Index of');
    }
  });
});
