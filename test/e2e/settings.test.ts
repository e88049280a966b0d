/**
 * Settings in Chromium against `pinfold serve`: the service's facts (GET /api/v0/service), every kind of
 * setting edited (GET|POST /api/v0/settings), a flag's value disabled, a bad value refused, a saved port
 * waiting for a restart, Run garbage collection with its confirmation and result, what a non-owner sees, and the desktop app's settings
 * through a stubbed bridge.
 */
import { createServer } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ServiceFacts, SettingsView } from '../../shared/api-types.js';
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
  uploadAndPin,
  type E2eService,
} from './kit/index.js';

let service: E2eService;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  // No grace period: an unpinned upload is collected by the next cycle.
  service = await startService(['--gc-grace', '0']);
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

/** A port nothing listens on now (the OS's pick, closed again). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

const settings = () => service.call<{ data: SettingsView }>('GET', '/api/v0/settings').then((answer) => answer.json.data);
const heading = (name: string) => page.getByRole('heading', { level: 1, name });

async function openSettings(): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
  await heading('Settings').waitFor();
}

describe('Settings', () => {
  it("shows the owner the service's facts as GET /api/v0/service has them", async () => {
    await signIn(page, service);
    await openSettings();
    const facts = (await service.call<{ data: ServiceFacts }>('GET', '/api/v0/service')).json.data;
    await page.getByTestId('service-version').filter({ hasText: facts.version }).waitFor();
    expect(await page.getByTestId('service-data-dir').textContent()).toContain(facts.data_dir);
    expect(await page.getByTestId('service-url').textContent()).toContain(facts.url);
    expect(await page.getByTestId('service-gc').textContent()).toBe('Every 1 hour; new blocks are kept for 0 seconds');
    expect(await page.getByTestId('service-cid-profile').textContent()).toBe(facts.cid_profile);
    await axeCheck(page, 'Settings');
    await screenshots(page, 'settings-owner');
  });

  it('edits each kind of setting: saved and shown back, the theme applied at once; a flag named and its field disabled', async () => {
    await signIn(page, service);
    await openSettings();
    const before = await settings();
    const storage = page.getByRole('region', { name: 'Storage' });
    const network = page.getByRole('region', { name: 'IPFS network' });
    const server = page.getByRole('region', { name: 'Server' });

    // A choice and a number (storage), a list (network), a switch (server).
    await storage.getByLabel('CID profile').selectOption('unixfs-v0-2015');
    await storage.getByLabel('Garbage collection every (seconds)').fill('600');
    await storage.getByRole('button', { name: 'Save storage settings' }).click();
    await page.getByText('Storage: saved and applied.').waitFor();
    await network.getByLabel('Fetch from these gateways').fill('http://127.0.0.1:9/\nhttp://127.0.0.1:10');
    await network.getByRole('button', { name: 'Save network settings' }).click();
    await page.getByText('IPFS network: saved and applied.').waitFor();
    await server.getByRole('checkbox', { name: 'Public gateway' }).check();
    await server.getByRole('button', { name: 'Save server settings' }).click();
    await server.getByText('Restart to apply: on is saved, off is in use. It applies at the next start of pinfold serve.').waitFor();
    const after = (await settings()).settings;
    expect([after.cid_profile.saved, after.cid_profile.value, after.gc_interval_seconds.value]).toEqual(['unixfs-v0-2015', 'unixfs-v0-2015', 600]);
    expect(after.fetch_from.value).toEqual(['http://127.0.0.1:9', 'http://127.0.0.1:10']);
    expect([after.public_gateway.saved, after.public_gateway.value]).toEqual([true, false]);
    expect(await network.getByLabel('Fetch from these gateways').inputValue()).toBe('http://127.0.0.1:9\nhttp://127.0.0.1:10');

    // The theme: applied at once and saved in the data folder.
    await page.getByRole('radio', { name: 'Dark' }).check();
    await page.locator('html[data-theme="dark"]').waitFor({ state: 'attached' });
    await expect.poll(async () => (await settings()).settings.theme.saved).toBe('dark');

    // What a flag pins: the field is disabled and says which flag.
    const grace = storage.getByLabel('Keep new blocks for (seconds)');
    expect(await grace.isDisabled()).toBe(true);
    await storage.getByText('Set by --gc-grace for this run (in use: 0)').waitFor();
    expect(await server.getByLabel('Port').isDisabled()).toBe(true);
    await server.getByText(/^Set by --port for this run/).waitFor();
    await axeCheck(page, 'Settings, edited');
    await page.getByRole('radio', { name: 'System' }).check();
    await expect.poll(async () => (await settings()).settings.theme.saved).toBe('system');
    await server.scrollIntoViewIfNeeded();
    await screenshots(page, 'settings-form');
    // Put the service's settings back for the other tests.
    const saved = Object.fromEntries(
      Object.entries(before.settings)
        .filter(([, one]) => one.saved !== null)
        .map(([name, one]) => [name, one.saved]),
    );
    expect((await service.call('POST', '/api/v0/settings', { body: saved })).status).toBe(200);
  });

  it("refuses a bad value with the service's reason beside its field, and changes nothing", async () => {
    await signIn(page, service);
    await openSettings();
    const before = await settings();
    const storage = page.getByRole('region', { name: 'Storage' });
    const interval = storage.getByLabel('Garbage collection every (seconds)');
    await interval.fill('0');
    await storage.getByRole('button', { name: 'Save storage settings' }).click();
    await storage.getByText('gc_interval_seconds: a whole number of seconds from 1 to 2147483 is required').waitFor();
    expect(await interval.getAttribute('aria-invalid')).toBe('true');
    expect(await settings()).toEqual(before);

    // The network's address check, beside its field too.
    const network = page.getByRole('region', { name: 'IPFS network' });
    await network.getByLabel('Fetch from these gateways').fill('ftp://not-a-gateway.example');
    await network.getByRole('button', { name: 'Save network settings' }).click();
    await network.getByText('fetch_from: "ftp://not-a-gateway.example" is not an http or https URL').waitFor();
    expect(await settings()).toEqual(before);
    await axeCheck(page, 'Settings, a bad value');
    await storage.scrollIntoViewIfNeeded();
    await screenshots(page, 'settings-bad-value');
  });

  it('says that a saved port waits for the next start of pinfold serve', async () => {
    // The port the desktop app chose for its service pins nothing (a --port would pin it).
    const unpinned = await startService(['--desktop-port', String(await freePort())]);
    try {
      await signIn(page, unpinned);
      await openSettings();
      const server = page.getByRole('region', { name: 'Server' });
      const port = server.getByLabel('Port');
      const inUse = new URL(unpinned.url).port;
      const read = async () => (await unpinned.call<{ data: SettingsView }>('GET', '/api/v0/settings')).json.data;
      // The field holds the saved port (what the next start uses), not the one this run took.
      expect(await port.inputValue()).toBe(String((await read()).settings.port.saved));
      expect(await port.isDisabled()).toBe(false);
      const next = 5099;
      await port.fill(String(next));
      await server.getByRole('button', { name: 'Save server settings' }).click();
      await expect
        .poll(() => server.getByTestId('restart-note').allTextContents())
        .toEqual([`Restart to apply: ${next} is saved, ${inUse} is in use. It applies at the next start of pinfold serve.`]);
      const view = await read();
      expect([view.settings.port.saved, view.restart_required]).toEqual([next, true]);
      await server.scrollIntoViewIfNeeded();
      await screenshots(page, 'settings-restart');
    } finally {
      await unpinned.dispose();
    }
  });

  it('runs garbage collection after a confirmation that can be cancelled, and shows what it removed', async () => {
    const cid = await uploadAndPin(service, service.owner, new TextEncoder().encode('to be collected\n'));
    expect((await service.call('POST', '/api/v0/pin/rm', { query: { arg: cid } })).status).toBe(200);
    await signIn(page, service);
    await openSettings();
    const run = page.getByRole('button', { name: 'Run garbage collection' });

    // Escape cancels, and focus returns to the button that opened the dialog.
    await run.click();
    const dialog = page.getByRole('dialog', { name: 'Run garbage collection now?' });
    await dialog.waitFor();
    await dialog.locator('button:focus', { hasText: 'Cancel' }).waitFor();
    await axeCheck(page, 'GC dialog');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await page.locator('button:focus', { hasText: 'Run garbage collection' }).waitFor();
    expect((await service.call('GET', `/api/v0/pin/${cid}`)).status).toBe(200);

    await run.click();
    await dialog.getByRole('button', { name: 'Run now' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByTestId('gc-result').filter({ hasText: '1 unpinned pin removed' }).waitFor();
    expect((await page.getByTestId('gc-result').textContent()) ?? '').toMatch(/\d+ blocks? deleted\.$/);
    expect((await service.call('GET', `/api/v0/pin/${cid}`)).status).toBe(404);
  });

  it('keeps the dialog open with the reason when garbage collection fails', async () => {
    await page.route('**/api/v0/repo/gc*', (route) =>
      route.fulfill({ status: 423, contentType: 'application/json', body: JSON.stringify({ code: 423, msg: 'a folder import holds the repository' }) }),
    );
    await signIn(page, service);
    await openSettings();
    await page.getByRole('button', { name: 'Run garbage collection' }).click();
    const dialog = page.getByRole('dialog', { name: 'Run garbage collection now?' });
    await dialog.getByRole('button', { name: 'Run now' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'A folder import holds the repository. Try again in a moment.' }).waitFor();
    await screenshots(page, 'settings-gc-error');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
  });

  it('tells another account that the service settings are for the owner, and offers no garbage collection', async () => {
    const user = await freeUser(service);
    await page.goto(`${service.url}/settings`);
    await signInWithKey(page, user.key);
    await heading('Settings').waitFor();
    await page.getByText('shown to the owner account only').waitFor();
    expect(await page.getByRole('button', { name: 'Run garbage collection' }).count()).toBe(0);
    await axeCheck(page, 'Settings, not the owner');
  });

  it('in the desktop app: launch at login through the bridge, and the port', async () => {
    await stubBridge(context, { ownerKey: service.owner, launchAtLogin: false, appVersion: '1.2.3' });
    await page.goto(`${service.url}/settings`);
    await heading('Settings').waitFor();
    const launch = page.getByRole('checkbox', { name: 'Start Pinfold when I log in' });
    await page.getByTestId('desktop-version').filter({ hasText: '1.2.3' }).waitFor();
    expect(await launch.isChecked()).toBe(false);
    expect(await page.getByTestId('desktop-port').textContent()).toBe(new URL(service.url).port);
    await launch.click();
    await page.getByRole('checkbox', { name: 'Start Pinfold when I log in', checked: true }).waitFor();
    expect((await bridgeCalls(page)).filter((call) => call.method === 'setLaunchAtLogin')).toEqual([{ method: 'setLaunchAtLogin', args: [true] }]);
    await axeCheck(page, 'Settings in the desktop app');
    await screenshots(page, 'settings-desktop');
  });

  it('in the desktop app: says so when the setting cannot be changed', async () => {
    await stubBridge(context, { ownerKey: service.owner, launchAtLogin: true, failing: ['setLaunchAtLogin'] });
    await page.goto(`${service.url}/settings`);
    const launch = page.getByRole('checkbox', { name: 'Start Pinfold when I log in' });
    await launch.waitFor();
    await page.getByTestId('desktop-port').waitFor();
    await page.getByRole('checkbox', { name: 'Start Pinfold when I log in', checked: true }).waitFor();
    await launch.click();
    await page.getByRole('alert').filter({ hasText: 'could not change this' }).waitFor();
    expect(await launch.isChecked()).toBe(true);
  });
});
