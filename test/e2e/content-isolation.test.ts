/**
 * User content is served on the UI's own origin (contract section 5): an uploaded HTML page or SVG opened at
 * /ipfs/... in the tab where the UI is signed in must not be able to read the UI's credentials. The server
 * runs with --public-gateway, so the browser reads /ipfs without headers, as a link or an address typed in
 * would. Needs the built renderer (`npx vite build`; `npm test` builds first).
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { dagAdd, EMPTY_DIR_V1, uploadCid } from '../integration/uploads-helpers.js';

const CHROMIUM = '/usr/bin/chromium';
const rendererIndex = fileURLToPath(new URL('../../dist/renderer/index.html', import.meta.url));
const NOT_RUN = 'script did not run';

/** What the uploaded documents' script does: read the UI's storage and write what it got into the page. */
const STEAL = `
  var report = document.getElementById('report');
  try {
    report.textContent = 'session=' + sessionStorage.getItem('pinfold.credentials') + ' local=' + JSON.stringify(Object.entries(localStorage));
  } catch (error) {
    report.textContent = 'storage denied: ' + error.name;
  }
`;
const PAGE = `<!DOCTYPE html><html><head><title>user page</title></head><body><p id="report">${NOT_RUN}</p><script>${STEAL}</script></body></html>`;
/** What a script from the gateway would do if the UI page ran it. */
const PAYLOAD = "document.documentElement.dataset.injected = 'ran';";
const SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="40"><text id="report" x="4" y="24">${NOT_RUN}</text><script>//<![CDATA[${STEAL}//]]></script></svg>`;

let server: TestServer;
let root: string;
let payload: string;
let userDataDir: string;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  if (!existsSync(rendererIndex)) throw new Error(`${rendererIndex} is missing: run \`npx vite build\` first (npm test does)`);
  server = await startTestServer({ publicGateway: true });
  const withPage = await dagAdd(server, server.owner, EMPTY_DIR_V1, 'page.html', new TextEncoder().encode(PAGE));
  expect(withPage.status, withPage.text).toBe(201);
  const withSvg = await dagAdd(server, server.owner, withPage.headers.get('ipfs-hash') as string, 'image.svg', new TextEncoder().encode(SVG));
  expect(withSvg.status, withSvg.text).toBe(201);
  root = withSvg.headers.get('ipfs-hash') as string;
  payload = await uploadCid(server, server.owner, new TextEncoder().encode(PAYLOAD));
  userDataDir = await mkdtemp(join(tmpdir(), 'pinfold-chromium-'));
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  context.setDefaultTimeout(20_000);
});

afterAll(async () => {
  await context?.close();
  if (userDataDir) await rm(userDataDir, { recursive: true, force: true });
  await server?.stop();
});

beforeEach(async () => {
  page = await context.newPage();
});

afterEach(async () => {
  await page.close();
});

/** Signs the UI in, in this tab: the credentials are then in the tab's sessionStorage for the server's origin. */
async function signIn(): Promise<void> {
  await page.goto(`${server.url}/`);
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await page.getByLabel('Access key').fill(server.owner.access_key);
  await page.getByLabel('Access secret').fill(server.owner.access_secret);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
  const stored = await page.evaluate<string | null>('sessionStorage.getItem("pinfold.credentials")');
  expect(stored).toContain(server.owner.access_secret);
}

/** Storage as the document itself sees it, asked through DevTools, which the page's CSP does not govern. */
function storageSeenByDocument(): Promise<string> {
  return page.evaluate<string>(
    '(() => { try { return "session=" + sessionStorage.getItem("pinfold.credentials"); } catch (error) { return "denied: " + error.name; } })()',
  );
}

describe('content from /ipfs in the tab where the UI is signed in', () => {
  it.each([
    ['an HTML page', 'page.html'],
    ['an SVG image', 'image.svg'],
  ])('%s cannot read the UI credentials: its script does not run, and its origin has no storage', async (_what, file) => {
    await signIn();
    const response = await page.goto(`${server.url}/ipfs/${root}/${file}`);
    expect(response?.status()).toBe(200);
    expect(await response?.headerValue('content-security-policy')).toBe('sandbox');
    const report = (await page.locator('#report').textContent()) ?? '';
    expect(report).not.toContain(server.owner.access_secret);
    expect(report).not.toContain(server.owner.access_key);
    expect(report).toBe(NOT_RUN);
    expect(await storageSeenByDocument()).toBe('denied: SecurityError');

    // The UI in the same tab still has its session.
    await page.goto(`${server.url}/`);
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
  });

  it('the generated directory listing still works under the sandbox: styled, and its links navigate', async () => {
    await signIn();
    await page.goto(`${server.url}/ipfs/${root}/`);
    await page.getByRole('heading', { name: /Index of/ }).waitFor();
    // The listing's inline style applies (the sandbox takes script away, not style).
    expect(await page.evaluate<string>('getComputedStyle(document.querySelector(".ipfs-hash")).fontFamily')).toContain('monospace');
    await page.getByRole('link', { name: 'page.html' }).click();
    await page.waitForURL(`${server.url}/ipfs/${root}/page.html`);
    expect(await page.locator('#report').textContent()).toBe(NOT_RUN);
  });
});

describe("the UI's own scripts", () => {
  it('a script, a module and a worker from the gateway injected into the UI page are blocked; the app and its gateway worker run', async () => {
    // Issue 22, item 4: any CID is served as JavaScript with ?filename=x.js, on the UI's own origin.
    const source = `/ipfs/${payload}?filename=x.js`;
    const served = await fetch(`${server.url}${source}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(await served.text()).toBe(PAYLOAD);

    await signIn();
    await page.evaluate(`(() => {
      window.violations = [];
      document.addEventListener('securitypolicyviolation', (event) => window.violations.push(event.effectiveDirective + ' ' + event.blockedURI));
      const script = document.createElement('script');
      script.src = ${JSON.stringify(source)};
      document.head.append(script);
      import(${JSON.stringify(`${source}&as=module`)}).catch(() => undefined);
      try { new Worker(${JSON.stringify(`${source}&as=worker`)}); } catch {}
    })()`);
    await expect
      .poll(() => page.evaluate<string[]>('window.violations.slice().sort()'))
      .toEqual([`script-src-elem ${server.url}${source}`, `script-src-elem ${server.url}${source}&as=module`, `worker-src ${server.url}${source}&as=worker`]);
    expect(await page.evaluate<string | null>('document.documentElement.dataset.injected ?? null')).toBeNull();

    // The app's own scripts still run: a page loaded on demand, and the gateway worker registered for both scopes.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Files' }).click();
    await page.getByRole('heading', { name: 'Files', level: 1 }).waitFor();
    await expect.poll(() => page.evaluate<number>('navigator.serviceWorker.getRegistrations().then((all) => all.filter((one) => one.active).length)')).toBe(2);
    expect(await page.evaluate<string[]>('window.violations')).toHaveLength(3);
  });
});
