/**
 * The window's shell in real Chromium against `pinfold serve`: the navigation, real URLs (reload,
 * back/forward, deep links across sign-in), sign-in links and sign-out, a 401 and a stopped service, the
 * theme, the keyboard, the narrow layout and the desktop bridge. Needs the built renderer (`npx vite
 * build`; `npm test` builds first).
 */
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  axeCheck,
  freeUser,
  launchBrowser,
  navigationNames,
  newContext,
  screenshots,
  signIn,
  signInWithKey,
  startService,
  stubBridge,
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

const ALL_PAGES = [
  { name: 'Overview', path: '/overview' },
  { name: 'Files', path: '/files' },
  { name: 'Pins', path: '/pins' },
  { name: 'Names', path: '/names' },
  { name: 'Keys', path: '/keys' },
  { name: 'Sync', path: '/sync' },
  { name: 'Partners', path: '/partners' },
  { name: 'Settings', path: '/settings' },
];

const heading = (name: string) => page.getByRole('heading', { level: 1, name });
const nav = () => page.getByRole('navigation', { name: 'Main' });
const path = () => new URL(page.url()).pathname + new URL(page.url()).search;
const stored = () => page.evaluate<string | null>('sessionStorage.getItem("pinfold.credentials")');

describe('navigation', () => {
  it('signs the owner in from the sign-in page `pinfold open` opens (a private file, gone once used), and takes the code out of the address bar', async () => {
    // `pinfold serve` printed no code: its output here is a pipe, not a terminal.
    expect(service.printedSignIn).toMatch(/^run `pinfold open --data \S+` for a one-time link/);
    const signInPage = await service.signInPage();
    await page.goto(pathToFileURL(signInPage).href);
    await heading('Overview').waitFor();
    expect(path()).toBe('/overview');
    expect(await page.evaluate<string>('location.href')).not.toContain('code=');
    expect(existsSync(signInPage)).toBe(false);
    // Neither the page nor the link is left in the tab's history: back is the blank page the tab began on.
    await page.goBack();
    expect(page.url()).toBe('about:blank');
    await page.goForward();
    await heading('Overview').waitFor();
    expect(await page.getByTestId('account-name').textContent()).toBe('owner');
    await page.getByTestId('header-account').getByText('Local plan').waitFor();
    // A session key (kept in this tab only), not the owner's secret.
    const session = JSON.parse((await stored()) ?? 'null') as { accessKey: string; session: boolean };
    expect(session).toMatchObject({ session: true });
    expect(session.accessKey).not.toBe(service.owner.access_key);
  });

  it('lists the pages in order, marks the current one, and gives each a real URL, title and heading', async () => {
    await signIn(page, service);
    await nav().getByRole('link', { name: 'Partners' }).waitFor();
    expect(await navigationNames(page)).toEqual(ALL_PAGES.map((entry) => entry.name));
    for (const entry of ALL_PAGES) {
      await nav().getByRole('link', { name: entry.name, exact: true }).click();
      await heading(entry.name).waitFor();
      expect(path()).toBe(entry.path);
      expect(await page.title()).toBe(`${entry.name} · Pinfold`);
      expect(await nav().locator('[aria-current="page"]').allTextContents()).toEqual([entry.name]);
      await axeCheck(page, entry.path);
    }
  });

  it('reload and back/forward keep the page', async () => {
    await signIn(page, service);
    await nav().getByRole('link', { name: 'Pins' }).click();
    await heading('Pins').waitFor();
    await nav().getByRole('link', { name: 'Settings' }).click();
    await heading('Settings').waitFor();
    await page.reload();
    await heading('Settings').waitFor();
    await page.goBack();
    await heading('Pins').waitFor();
    expect(path()).toBe('/pins');
    await page.goBack();
    await heading('Overview').waitFor();
    await page.goForward();
    await heading('Pins').waitFor();
    // A sync folder's own page belongs to Sync.
    await page.goto(`${service.url}/sync/3f2a`);
    await heading('Sync folder').waitFor();
    expect(await nav().locator('[aria-current="page"]').allTextContents()).toEqual(['Sync']);
    // An address the app does not know is the service's, which answers with an error envelope.
    const unknown = await page.goto(`${service.url}/overview/more`);
    expect(unknown?.status()).toBeGreaterThanOrEqual(400);
    expect(JSON.parse((await unknown?.text()) ?? '')).toMatchObject({ code: unknown?.status() });
  });

  it('opens a deep link after sign-in, with its query', async () => {
    await page.goto(`${service.url}/pins?status=pinned`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(path()).toBe('/signin');
    await signInWithKey(page, service.owner);
    await heading('Pins').waitFor();
    expect(path()).toBe('/pins?status=pinned');
    // Once used, the target is forgotten: the next sign-in lands on the Overview.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await signInWithKey(page, service.owner);
    await heading('Overview').waitFor();
  });

  it('shows Partners only to partner accounts', async () => {
    const user = await freeUser(service);
    await page.goto(`${service.url}/overview`);
    await signInWithKey(page, user.key);
    await heading('Overview').waitFor();
    await page.getByTestId('header-account').getByText('Free plan').waitFor();
    expect(await navigationNames(page)).toEqual(['Overview', 'Files', 'Pins', 'Names', 'Keys', 'Sync', 'Settings']);
    await page.goto(`${service.url}/partners`);
    await heading('Partners').waitFor();
    await page.getByText('This account is not a partner account').waitFor();
  });
});

describe('signing in and out', () => {
  it("the desktop app's sign-in pages (shared) land on their next page, and the tabs of one burst share one browser session", async () => {
    const tabs = [page, await context.newPage()];
    const credentials: string[] = [];
    for (const [index, tab] of tabs.entries()) {
      const next = index === 0 ? '/pins' : '/names';
      await tab.goto(pathToFileURL(await service.signInPage({ next, session: 'shared' })).href);
      await tab.getByRole('heading', { level: 1, name: index === 0 ? 'Pins' : 'Names' }).waitFor();
      expect(new URL(tab.url()).pathname).toBe(next);
      credentials.push((await tab.evaluate<string | null>('sessionStorage.getItem("pinfold.credentials")')) ?? '');
    }
    const [first, second] = credentials.map((text) => JSON.parse(text) as { accessKey: string; session: boolean });
    expect(first).toMatchObject({ session: true });
    expect(second?.accessKey).toBe(first?.accessKey);
    // Sign out in one tab ends the shared session; the other is sent to sign-in when it next asks.
    const other = tabs[1] as Page;
    await other.getByRole('button', { name: 'Sign out' }).click();
    await other.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await other.close();
  });

  it('Sign out of a session that is gone already (another tab of it signed out) signs this window out without a complaint', async () => {
    await signIn(page, service);
    await page.route('**/api/v0/session?*', (route) =>
      route.request().method() === 'DELETE'
        ? route.fulfill({ status: 401, contentType: 'application/json', body: JSON.stringify({ code: 401, msg: 'invalid access key or secret' }) })
        : route.fallback(),
    );
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await page.getByText('could not be reached').count()).toBe(0);
    expect(await stored()).toBeNull();
  });

  it('refuses a spent or damaged sign-in link with a message, and keeps nothing', async () => {
    const link = await service.signInLink();
    await page.goto(link);
    await heading('Overview').waitFor();
    const other = await context.newPage();
    await other.goto(link);
    await other.getByRole('status').filter({ hasText: 'already used or has expired' }).waitFor();
    expect(await other.evaluate<string | null>('sessionStorage.getItem("pinfold.credentials")')).toBeNull();
    expect(new URL(other.url()).search).toBe('');
    await axeCheck(other, 'sign-in with a spent link');
    await screenshots(other, 'sign-in-spent-link');
    await other.goto(`${service.url}/signin?code=short`);
    await other
      .getByRole('status')
      .filter({ hasText: /already used or has expired|incomplete/ })
      .waitFor();
    await other.close();
  });

  it('names an empty field without calling the service, and a wrong secret after asking it', async () => {
    let calls = 0;
    page.on('request', (request) => {
      if (request.url().includes('/api/')) calls += 1;
    });
    await page.goto(`${service.url}/signin`);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByText('Enter an access key.').waitFor();
    expect(await page.getByLabel('Access key').getAttribute('aria-invalid')).toBe('true');
    expect(calls).toBe(0);
    await signInWithKey(page, { access_key: service.owner.access_key, access_secret: `${service.owner.access_secret.slice(0, -4)}AAAA` });
    await page.getByRole('alert').filter({ hasText: 'did not accept this access key' }).waitFor();
    expect(await stored()).toBeNull();
    await axeCheck(page, 'sign-in with an error');
    await screenshots(page, 'sign-in-error');
  });

  it('Sign out deletes the session key on the service', async () => {
    await signIn(page, service);
    const session = JSON.parse((await stored()) ?? 'null') as { accessKey: string; accessSecret: string };
    const sessionKey = { access_key: session.accessKey, access_secret: session.accessSecret };
    expect((await service.call('GET', '/api/v0/stats', { key: sessionKey })).status).toBe(200);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await stored()).toBeNull();
    expect((await service.call('GET', '/api/v0/stats', { key: sessionKey })).status).toBe(401);
    const keys = await service.call<{ data: Array<{ access_key: string }> }>('GET', '/api/v0/keys');
    expect(keys.json.data.map((key) => key.access_key)).not.toContain(session.accessKey);
  });

  it('goes back to sign-in with a notice when the key stops working, and returns to the page after', async () => {
    const user = await freeUser(service);
    await page.goto(`${service.url}/pins`);
    await signInWithKey(page, user.key);
    await heading('Pins').waitFor();
    const removed = await service.call('DELETE', '/api/v0/partner/user/key', { body: { uuid: user.uuid, name: 'e2e' } });
    expect(removed.status, removed.text).toBe(200);
    await nav().getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.getByRole('status').filter({ hasText: 'Sign in again' }).waitFor();
    expect(await stored()).toBeNull();
    await signInWithKey(page, service.owner);
    await heading('Settings').waitFor();
  });
});

describe('a stopped service', () => {
  it('shows a banner with Retry, and the page recovers by itself when the service is back', async () => {
    // The shell fetches every page's code once idle; the test waits for that before the service goes.
    const preloaded = page.waitForResponse((response) => /\/assets\/settings-page-[^/]+\.js$/.test(response.url()));
    await signIn(page, service);
    // The chunk's arrival is not enough: the chunks it imports (components shared with other pages) may
    // still be on their way. Importing it again resolves once it and all it imports are in.
    await page.evaluate(`import(${JSON.stringify((await preloaded).url())}).then(() => true)`);
    await service.stop();
    try {
      await nav().getByRole('link', { name: 'Settings' }).click();
      const banner = page.getByRole('alert').filter({ hasText: 'Pinfold service is not reachable' });
      await banner.waitFor();
      await page.getByRole('status').filter({ hasText: 'Waiting for the Pinfold service…' }).waitFor();
      await axeCheck(page, 'offline banner');
      await screenshots(page, 'shell-offline');
      // Retry while it is still down: the banner stays.
      await banner.getByRole('button', { name: 'Retry' }).click();
      await page.getByRole('button', { name: 'Retry' }).waitFor();
      expect(await banner.isVisible()).toBe(true);
    } finally {
      await service.start();
    }
    await page.getByRole('alert').filter({ hasText: 'Pinfold service is not reachable' }).waitFor({ state: 'detached', timeout: 60_000 });
    // The page fetched what it could not before.
    await page.getByTestId('service-version').waitFor();
  });
});

describe('theme', () => {
  it('follows the system, and a choice in Settings holds from the first paint, even before the app runs', async () => {
    await signIn(page, service);
    await page.emulateMedia({ colorScheme: 'dark' });
    const background = () => page.evaluate<string>('getComputedStyle(document.documentElement).backgroundColor');
    const dark = await background();
    await page.emulateMedia({ colorScheme: 'light' });
    const light = await background();
    expect(dark).not.toBe(light);

    await nav().getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('radio', { name: 'Dark' }).check();
    expect(await page.evaluate<string | null>('document.documentElement.getAttribute("data-theme")')).toBe('dark');
    expect(await background()).toBe(dark);
    expect(await page.evaluate<string | null>('localStorage.getItem("pinfold.theme")')).toBe('dark');

    // With the app's own script blocked, the boot script alone still applies the choice.
    await page.route('**/assets/index-*.js', (route) => route.abort());
    await page.reload();
    expect(await page.evaluate<string | null>('document.documentElement.getAttribute("data-theme")')).toBe('dark');
    expect(await background()).toBe(dark);
    await page.unroute('**/assets/index-*.js');
    await page.reload();
    await page.getByRole('radio', { name: 'System' }).check();
    expect(await page.evaluate<string | null>('document.documentElement.getAttribute("data-theme")')).toBeNull();
    expect(await page.evaluate<string | null>('localStorage.getItem("pinfold.theme")')).toBeNull();
    expect(await background()).toBe(light);
  });
});

describe('keyboard and narrow screens', () => {
  it('works from the keyboard alone: skip link, navigation, focus on the new page', async () => {
    await signIn(page, service);
    await page.reload();
    await heading('Overview').waitFor();
    await page.keyboard.press('Tab');
    expect(await page.evaluate<string>('document.activeElement.textContent')).toBe('Skip to content');
    await page.keyboard.press('Enter');
    expect(await page.evaluate<string>('document.activeElement.id')).toBe('main');

    await page.reload();
    await heading('Overview').waitFor();
    // Skip link, Pinfold, Sign out, then the navigation: Overview, Files, Pins.
    for (let step = 0; step < 6; step += 1) await page.keyboard.press('Tab');
    expect(await page.evaluate<string>('document.activeElement.textContent')).toBe('Pins');
    await page.keyboard.press('Enter');
    await heading('Pins').waitFor();
    await page.locator('h1:focus').filter({ hasText: 'Pins' }).waitFor();
  });

  it('at 480 pixels the navigation sits behind a Menu button', async () => {
    await page.setViewportSize({ width: 480, height: 800 });
    await signIn(page, service);
    const menu = page.getByRole('button', { name: 'Menu' });
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    expect(await nav().isVisible()).toBe(false);
    await menu.click();
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    await nav().getByRole('link', { name: 'Keys' }).click();
    await heading('Keys').waitFor();
    expect(await nav().isVisible()).toBe(false);
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    // Nothing is cut off: the page is no wider than the window.
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(480);
    await axeCheck(page, 'narrow shell');
  });
});

describe('in the desktop app (bridge stubbed)', () => {
  it('signs the owner in by itself, keeps the secret out of the tab, and offers "Sign in as owner" after Sign out', async () => {
    await stubBridge(context, { ownerKey: service.owner });
    await page.goto(`${service.url}/`);
    await heading('Overview').waitFor();
    expect(await stored()).toBeNull();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    // It stays signed out, reload included, until asked.
    await page.reload();
    const owner = page.getByRole('button', { name: 'Sign in as owner' });
    await owner.waitFor();
    expect(await heading('Overview').count()).toBe(0);
    await axeCheck(page, 'desktop sign-in');
    await screenshots(page, 'sign-in-desktop');
    await owner.click();
    await heading('Overview').waitFor();
  });

  it('says so when the desktop app has no owner key to hand over', async () => {
    await stubBridge(context, { ownerKey: null });
    await page.goto(`${service.url}/overview`);
    await page.getByRole('status').filter({ hasText: 'did not hand over the owner key' }).waitFor();
    await page.getByLabel('Access key').waitFor();
  });
});
