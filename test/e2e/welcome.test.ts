/**
 * The owner's first-run welcome in Chromium against `pinfold serve` on a fresh data folder: shown on the
 * first sign-in, Skip hides it and saves `welcome_seen` in the data folder, and a new browser (another
 * context, nothing in its storage) does not show it again. A step taken (Upload files) counts as seen too.
 */
import type { Browser, BrowserContext, Page, Response } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SettingsView } from '../../shared/api-types.js';
import { axeCheck, launchBrowser, newContext, screenshots, signIn, startService, type E2eService } from './kit/index.js';

let service: E2eService;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  service = await startService([], { welcome: true });
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

const welcome = () => page.getByRole('region', { name: 'Welcome to Pinfold' });
const welcomeSeen = async () => (await service.call<{ data: SettingsView }>('GET', '/api/v0/settings')).json.data.settings.welcome_seen.value;
const settingsLoaded = (response: Response) => new URL(response.url()).pathname === '/api/v0/settings' && response.request().method() === 'GET';

describe('First-run welcome', () => {
  it('greets the owner of a fresh data folder once: Skip hides it, and another browser does not show it again', async () => {
    expect(await welcomeSeen()).toBe(false);
    await signIn(page, service);
    await welcome().waitFor();
    await welcome().getByRole('button', { name: 'Sync a folder' }).waitFor();
    await welcome().getByRole('button', { name: 'Upload files' }).waitFor();
    await axeCheck(page, 'Welcome');
    await screenshots(page, 'welcome');

    await welcome().getByRole('button', { name: 'Skip' }).click();
    await welcome().waitFor({ state: 'hidden' });
    await expect.poll(welcomeSeen).toBe(true);

    // A new browser: nothing of the first in its storage, the data folder remembers.
    const other = await newContext(browser);
    try {
      const otherPage = await other.newPage();
      const loaded = otherPage.waitForResponse(settingsLoaded);
      await signIn(otherPage, service);
      expect((await loaded).status()).toBe(200);
      await otherPage.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
      // The settings are in: two frames later the window has drawn what they say.
      await otherPage.evaluate('new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))');
      expect(await otherPage.getByRole('region', { name: 'Welcome to Pinfold' }).count()).toBe(0);
    } finally {
      await other.close();
    }
  });

  it('counts a first step taken as seen: Upload files goes to Files and the welcome is gone for good', async () => {
    const fresh = await startService([], { welcome: true });
    try {
      await signIn(page, fresh);
      const panel = page.getByRole('region', { name: 'Welcome to Pinfold' });
      await panel.getByRole('button', { name: 'Upload files' }).click();
      await page.getByRole('heading', { level: 1, name: 'Files' }).waitFor();
      expect(await panel.count()).toBe(0);
      const seen = () => fresh.call<{ data: SettingsView }>('GET', '/api/v0/settings').then((answer) => answer.json.data.settings.welcome_seen.value);
      await expect.poll(seen).toBe(true);
    } finally {
      await fresh.dispose();
    }
  });
});
