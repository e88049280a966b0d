/**
 * Settings in Chromium against `pinfold serve`: the service's facts (GET /api/v0/service), Run garbage
 * collection with its confirmation and result, what a non-owner sees, and the desktop app's settings
 * through a stubbed bridge.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { NetworkSettingsView, ServiceFacts } from '../../shared/api-types.js';
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

  it('edits where the service reaches the IPFS network: saved and applied at once, a bad address refused, a flag told', async () => {
    await signIn(page, service);
    await openSettings();
    const network = () => service.call<{ data: NetworkSettingsView }>('GET', '/api/v0/settings/network').then((answer) => answer.json.data);
    const before = await network();
    const gateways = page.getByRole('textbox', { name: 'Fetch from these gateways' });
    expect(await gateways.inputValue()).toBe(before.saved.fetch_from.join('\n'));
    const save = page.getByRole('button', { name: 'Save network settings' });
    expect(await save.isDisabled()).toBe(true);

    // A bad address: the service's reason beside the form, nothing saved.
    await gateways.fill('ftp://not-a-gateway.example');
    await save.click();
    await page.getByText('fetch_from: "ftp://not-a-gateway.example" is not an http or https URL').waitFor();
    expect(await network()).toEqual(before);

    // A good one: saved, applied, the form shows it back (trailing slash dropped).
    await gateways.fill('http://127.0.0.1:9/\nhttp://127.0.0.1:10');
    await page.getByRole('textbox', { name: 'Routing endpoints' }).fill('');
    await save.click();
    await page.getByText('Network settings saved and applied.').waitFor();
    const after = await network();
    expect(after.saved).toEqual({ fetch_from: ['http://127.0.0.1:9', 'http://127.0.0.1:10'], routing: [], offline: before.saved.offline });
    expect(await gateways.inputValue()).toBe('http://127.0.0.1:9\nhttp://127.0.0.1:10');
    expect(await save.isDisabled()).toBe(true);

    // What a command-line flag pins for this run is said under its field.
    const offline = page.getByRole('checkbox', { name: 'Work offline' });
    const hint = (await page.locator(`#${await offline.getAttribute('aria-describedby')}`).textContent()) ?? '';
    if (after.pinned.offline) expect(hint).toContain('Set by --offline on the command line for this run');
    else expect(hint).toContain('Makes no request to the IPFS network at all');

    // Discard puts the saved values back.
    await gateways.fill('http://127.0.0.1:11');
    await page.getByRole('button', { name: 'Discard changes' }).click();
    expect(await gateways.inputValue()).toBe('http://127.0.0.1:9\nhttp://127.0.0.1:10');
    await axeCheck(page, 'Settings, network');
    await page.getByRole('heading', { name: 'IPFS network' }).scrollIntoViewIfNeeded();
    await screenshots(page, 'settings-network');
    // Put the service's settings back for the other tests.
    expect((await service.call('POST', '/api/v0/settings/network', { body: before.saved })).status).toBe(200);
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
