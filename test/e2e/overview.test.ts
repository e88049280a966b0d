/**
 * The renderer in real Chromium against a real server: sign-in, the Overview's numbers against
 * GET /api/v0/stats, refresh, sign-out, a wrong secret, a key deleted mid-session and a network
 * failure. Needs the built renderer (`npx vite build`; `npm test` builds first).
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { formatAmount, formatDate, formatLimit, usageRows } from '../../renderer/lib/format.js';
import type { AccountUsage, CreatedAccessKey, Plan } from '../../shared/api-types.js';
import { createUser, createUserKey } from '../helpers/account-api.js';
import { call, startTestServer, type TestServer } from '../helpers/test-server.js';

const CHROMIUM = '/usr/bin/chromium';
const rendererIndex = fileURLToPath(new URL('../../dist/renderer/index.html', import.meta.url));
const SCREENSHOT = join(tmpdir(), 'pinfold-overview.png');

let server: TestServer;
let userDataDir: string;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  if (!existsSync(rendererIndex)) throw new Error(`${rendererIndex} is missing: run \`npx vite build\` first (npm test does)`);
  server = await startTestServer();
  userDataDir = await mkdtemp(join(tmpdir(), 'pinfold-chromium-'));
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1100, height: 820 },
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
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
  await page.goto(`${server.url}/`);
});

afterEach(async () => {
  await page.close();
});

async function stats(key: { access_key: string; access_secret: string }): Promise<AccountUsage> {
  const response = await call<{ code: number; data: AccountUsage }>(server, 'GET', '/api/v0/stats', { key });
  expect(response.status).toBe(200);
  return response.json.data;
}

async function signIn(key: { access_key: string; access_secret: string }): Promise<void> {
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await page.getByLabel('Access key').fill(key.access_key);
  await page.getByLabel('Access secret').fill(key.access_secret);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

async function text(testId: string, inside?: string): Promise<string> {
  const scope = inside ? page.getByTestId(inside) : page;
  return ((await scope.getByTestId(testId).textContent()) ?? '').trim();
}

/** Every figure the Overview shows, read from the page. */
async function shownUsage(): Promise<Record<string, { used: string; limit: string }>> {
  const shown: Record<string, { used: string; limit: string }> = {};
  for (const key of ['pinned_count', 'pinned_bytes', 'ingress', 'egress', 'ipns']) {
    shown[key] = { used: await text('used', `usage-${key}`), limit: await text('limit', `usage-${key}`) };
  }
  return shown;
}

/** What the Overview must show for these stats. */
function expectedUsage(usage: AccountUsage): Record<string, { used: string; limit: string }> {
  return Object.fromEntries(
    usageRows(usage).map((row) => [row.key, { used: formatAmount(row.used, row.unit), limit: formatLimit(row.limit, row.unit) }]),
  );
}

async function sessionState(): Promise<{ session: string | null; localItems: number }> {
  return page.evaluate<{ session: string | null; localItems: number }>(
    '({ session: sessionStorage.getItem("pinfold.credentials"), localItems: localStorage.length })',
  );
}

/** A partner-made user on the Free plan (finite limits), with an admin key of its own. */
async function freeUser(): Promise<{ uuid: string; key: CreatedAccessKey }> {
  const uuid = randomUUID();
  await createUser(server, server.owner, uuid);
  const key = await createUserKey(server, server.owner, uuid, 'e2e', ['admin']);
  return { uuid, key };
}

/** Makes usage non-zero: a two-step single-file upload (ingress), then a pin of it (pins, pinned bytes). */
async function uploadAndPin(key: CreatedAccessKey, bytes: Uint8Array): Promise<string> {
  const step1 = await call<{ code: number; data: { url: string } }>(server, 'POST', '/ipfs/', { key, query: { size: bytes.length } });
  expect(step1.status, step1.text).toBe(200);
  const step2 = await fetch(step1.json.data.url, { method: 'POST', body: bytes, headers: { 'Content-Type': 'application/octet-stream' } });
  expect(step2.status, await step2.text()).toBe(201);
  const cid = step2.headers.get('ipfs-hash');
  expect(cid).toBeTruthy();
  const pinned = await call(server, 'POST', '/api/v0/pin/add', { key, query: { arg: cid as string, name: 'e2e' } });
  expect(pinned.status, pinned.text).toBe(200);
  return cid as string;
}

describe('Overview in Chromium', () => {
  it('signs the owner in and shows the numbers of /api/v0/stats', async () => {
    await signIn(server.owner);
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    await page.getByTestId('usage-pinned_count').waitFor();

    const usage = await stats(server.owner);
    expect(await shownUsage()).toEqual(expectedUsage(usage));
    expect(await text('plan')).toBe(usage.plan);
    expect(await text('next-bill')).toBe(formatDate(usage.next_bill_at));
    expect(await text('balance')).toBe(usage.token_amount);
    // The owner's plan is unlimited: every limit reads "unlimited", and there is no bar to fill.
    expect(Object.values(await shownUsage()).map((figure) => figure.limit)).toEqual(Array(5).fill('unlimited'));
    expect(await page.getByRole('meter').count()).toBe(0);

    // Remembered in this tab's sessionStorage only.
    const state = await sessionState();
    expect(JSON.parse(state.session ?? 'null')).toEqual({ accessKey: server.owner.access_key, accessSecret: server.owner.access_secret });
    expect(state.localItems).toBe(0);

    await page.reload();
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect((await sessionState()).session).toBeNull();
  });

  it('shows a Free user its usage against finite limits, and refreshes after a plan change', async () => {
    const { uuid, key } = await freeUser();
    await uploadAndPin(key, new TextEncoder().encode('hello from the Pinfold e2e test\n'.repeat(64)));

    await signIn(key);
    await page.getByTestId('usage-pinned_bytes').waitFor();
    const usage = await stats(key);
    expect(usage).toMatchObject({ pinned_count: 1, ingress: 2048 });
    expect(usage.pinned_bytes).toBeGreaterThan(0);
    expect(await shownUsage()).toEqual(expectedUsage(usage));
    expect(await text('plan')).toBe('Free');

    // The limits are the Free plan's, as GET /api/v0/plans lists them.
    const plans = (await call<{ data: Plan[] }>(server, 'GET', '/api/v0/plans', { noTs: true })).json.data;
    const free = plans.find((plan) => plan.name === 'Free');
    expect(free).toBeDefined();
    expect(await text('limit', 'usage-pinned_bytes')).toBe(formatLimit(free?.pinned_bytes_limit ?? -1, 'bytes'));
    expect(await text('limit', 'usage-pinned_count')).toBe(formatLimit(free?.pinned_count_limit ?? -1, 'count'));
    expect(await page.getByRole('meter').count()).toBe(5);
    expect(await page.getByRole('meter', { name: 'Ingress' }).getAttribute('aria-valuetext')).toBe(
      `${expectedUsage(usage).ingress?.used} of ${expectedUsage(usage).ingress?.limit}`,
    );

    await page.screenshot({ path: SCREENSHOT, fullPage: true });

    // The partner moves the user to Starter; Refresh shows the new plan and limits.
    const starter = plans.find((plan) => plan.name === 'Starter');
    const change = await call(server, 'POST', '/api/v0/partner/user/update-plan', { key: server.owner, body: { uuid, plan_id: starter?.id } });
    expect(change.status, change.text).toBe(200);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.getByTestId('plan').filter({ hasText: 'Starter' }).waitFor();
    const after = await stats(key);
    expect(await shownUsage()).toEqual(expectedUsage(after));
    expect(await text('limit', 'usage-pinned_bytes')).toBe(formatLimit(starter?.pinned_bytes_limit ?? -1, 'bytes'));
    expect(((await page.getByRole('status').filter({ hasText: 'Updated at' }).textContent()) ?? '').length).toBeGreaterThan(0);
  });

  it('shows an error for a wrong secret and stays on sign-in', async () => {
    const wrong = { access_key: server.owner.access_key, access_secret: `${server.owner.access_secret.slice(0, -4)}AAAA` };
    await signIn(wrong);
    const alert = page.getByRole('alert').filter({ hasText: 'did not accept' });
    await alert.waitFor();
    expect(await page.getByRole('heading', { name: 'Sign in' }).isVisible()).toBe(true);
    expect(await page.getByRole('heading', { name: 'Overview' }).count()).toBe(0);
    expect((await sessionState()).session).toBeNull();
    // The user can correct the secret and go on.
    await page.getByLabel('Access secret').fill(server.owner.access_secret);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
  });

  it('names the empty field without calling the service', async () => {
    let calls = 0;
    page.on('request', (request) => {
      if (request.url().includes('/api/')) calls += 1;
    });
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'Enter an access key.' }).waitFor();
    expect(await page.getByLabel('Access key').getAttribute('aria-invalid')).toBe('true');
    expect(calls).toBe(0);
  });

  it('goes back to sign-in with a message when the key stops working', async () => {
    const { uuid, key } = await freeUser();
    await signIn(key);
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    const removed = await call(server, 'DELETE', '/api/v0/partner/user/key', { key: server.owner, body: { uuid, name: 'e2e' } });
    expect(removed.status, removed.text).toBe(200);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.getByRole('status').filter({ hasText: 'Sign in again' }).waitFor();
    expect((await sessionState()).session).toBeNull();
  });

  it('keeps the Overview and reports a network failure on refresh', async () => {
    await signIn(server.owner);
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    await page.route('**/api/v0/stats*', (route) => route.abort('connectionrefused'));
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.getByRole('alert').filter({ hasText: 'Cannot reach the Pinfold service' }).waitFor();
    expect(await page.getByTestId('usage-pinned_count').isVisible()).toBe(true);
    // Once the service answers again, Refresh clears the error.
    await page.unroute('**/api/v0/stats*');
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.getByRole('alert').filter({ hasText: 'Cannot reach' }).waitFor({ state: 'detached' });
    expect(((await page.getByRole('alert').textContent()) ?? '').trim()).toBe('');
  });

  it('signs in by itself through the desktop bridge, without copying the owner secret into the tab', async () => {
    // Stands in for the preload: the same `window.pinfold` shape, defined before the page's scripts run.
    const desktop = await context.newPage();
    await desktop.addInitScript((owner) => {
      // Runs in the page; `globalThis` is its window (this file is type-checked without DOM types).
      Object.defineProperty(globalThis, 'pinfold', {
        value: Object.freeze({
          isDesktop: true,
          getOwnerKey: async () => owner,
          pickFolder: async () => null,
          openExternal: async () => false,
        }),
      });
    }, server.owner);
    try {
      await desktop.goto(`${server.url}/`);
      await desktop.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
      expect(((await desktop.getByTestId('plan').textContent()) ?? '').trim()).toBe((await stats(server.owner)).plan);
      expect(await desktop.evaluate<string | null>('sessionStorage.getItem("pinfold.credentials")')).toBeNull();

      // After signing out, the app stays signed out in this tab, reload included.
      await desktop.getByRole('button', { name: 'Sign out' }).click();
      await desktop.getByRole('heading', { name: 'Sign in' }).waitFor();
      await desktop.reload();
      await desktop.getByRole('heading', { name: 'Sign in' }).waitFor();
      expect(await desktop.getByRole('heading', { name: 'Overview' }).count()).toBe(0);
    } finally {
      await desktop.close();
    }
  });
});
