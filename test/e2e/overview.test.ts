/**
 * The Overview in Chromium against `pinfold serve`: usage against limits as GET /api/v0/stats has it
 * ("Unlimited" draws no bar), the charts of GET /api/v0/stats/daily with their text alternative, the
 * first steps of an empty account, and figures that follow event: usage without a reload.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { formatAmount, formatBytes, formatLimit, usageRows } from '../../renderer/lib/format.js';
import type { AccountUsage, DailyUsage, Plan } from '../../shared/api-types.js';
import type { CreatedAccessKey } from '../../shared/api-types.js';
import { axeCheck, freeUser, launchBrowser, newContext, screenshots, signIn, signInWithKey, startService, uploadAndPin, type E2eService } from './kit/index.js';

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

async function stats(key?: CreatedAccessKey): Promise<AccountUsage> {
  const answer = await service.call<{ data: AccountUsage }>('GET', '/api/v0/stats', key ? { key } : {});
  expect(answer.status, answer.text).toBe(200);
  return answer.json.data;
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
  return Object.fromEntries(usageRows(usage).map((row) => [row.key, { used: formatAmount(row.used, row.unit), limit: formatLimit(row.limit, row.unit) }]));
}

const usageSection = () => page.getByRole('region', { name: 'Usage against plan limits' });

describe('Overview', () => {
  it('shows an empty account its first steps, "Unlimited" without a bar, and charts with a text alternative', async () => {
    await signIn(page, service);
    await usageSection().waitFor();
    expect(await shownUsage()).toEqual(expectedUsage(await stats()));
    expect(Object.values(await shownUsage()).map((figure) => figure.limit)).toEqual(Array(5).fill('Unlimited'));
    expect(await page.getByRole('meter').count()).toBe(0);
    expect(await page.getByRole('progressbar').count()).toBe(0);

    const steps = page.getByRole('region', { name: 'Get started' });
    // A browser cannot take a dropped folder for syncing: the advice says what works there.
    await steps.getByText("Type a folder's path on the Sync page").waitFor();
    for (const [name, href] of [
      ['Go to Sync', '/sync'],
      ['Go to Files', '/files'],
      ['Go to Keys', '/keys'],
    ]) {
      expect(await steps.getByRole('link', { name }).getAttribute('href')).toBe(href);
    }

    // Charts: a summary in words, and the 30 days as a table for screen readers.
    await page.getByRole('region', { name: 'Traffic per day' }).getByText('Last 30 days: nothing uploaded or served yet.').waitFor();
    await page.locator('.time-series-chart canvas').first().waitFor();
    const table = page.getByRole('table', { name: 'Usage per day, last 30 days (UTC)' });
    expect(await table.getByRole('row').count()).toBe(31);
    await axeCheck(page, 'empty Overview');
    await screenshots(page, 'overview-empty');

    await steps.getByRole('link', { name: 'Go to Keys' }).click();
    await page.getByRole('heading', { level: 1, name: 'Keys' }).waitFor();
  });

  it("shows a Free user its usage against the plan's limits as meters, and today's traffic in the chart", async () => {
    const user = await freeUser(service);
    const cid = await uploadAndPin(service, user.key, new TextEncoder().encode('hello from the Pinfold e2e test\n'.repeat(64)));
    expect(cid).toBeTruthy();
    await page.goto(`${service.url}/overview`);
    await signInWithKey(page, user.key);
    await usageSection().waitFor();
    const usage = await stats(user.key);
    expect(usage).toMatchObject({ pinned_count: 1, ingress: 2048 });
    expect(await shownUsage()).toEqual(expectedUsage(usage));
    expect(await text('plan')).toBe('Free');
    expect(await page.getByRole('region', { name: 'Get started' }).count()).toBe(0);

    const plans = (await service.call<{ data: Plan[] }>('GET', '/api/v0/plans', { noTs: true, key: null })).json.data;
    const free = plans.find((plan) => plan.name === 'Free');
    expect(await text('limit', 'usage-pinned_bytes')).toBe(formatLimit(free?.pinned_bytes_limit ?? -1, 'bytes'));
    expect(await page.getByRole('meter').count()).toBe(5);
    expect(await page.getByRole('meter', { name: 'Ingress' }).getAttribute('aria-valuetext')).toBe(
      `${expectedUsage(usage).ingress?.used} of ${expectedUsage(usage).ingress?.limit}`,
    );

    const daily = (await service.call<{ data: DailyUsage[] }>('GET', '/api/v0/stats/daily', { key: user.key, query: { days: 30 } })).json.data;
    const today = daily.at(-1);
    expect(today?.ingress).toBe(2048);
    await page.getByText(`Last 30 days: ${formatBytes(2048)} uploaded`).waitFor();
    const lastRow = page
      .getByRole('table', { name: /Usage per day/ })
      .getByRole('row')
      .last();
    expect(await lastRow.getByRole('cell').first().textContent()).toBe(formatBytes(2048));
    // The legends show the latest day's figures before anything is hovered, not dashes.
    const legendValues = (chart: number) => page.locator('.time-series-chart').nth(chart).locator('.u-legend .u-value').allTextContents();
    const todayLabel = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' }).format(new Date(`${today?.day}T00:00:00Z`));
    await expect.poll(() => legendValues(0)).toEqual([todayLabel, formatBytes(2048), formatBytes(0)]);
    expect(await legendValues(1)).toEqual([todayLabel, formatBytes(usage.pinned_bytes)]);
    await axeCheck(page, 'Overview with usage');
    await screenshots(page, 'overview-free-user');
  });

  it('follows event: usage: figures change without a reload', async () => {
    const user = await freeUser(service);
    await page.goto(`${service.url}/overview`);
    await signInWithKey(page, user.key);
    await usageSection().waitFor();
    expect(await text('used', 'usage-pinned_count')).toBe('0');
    await uploadAndPin(service, user.key, new TextEncoder().encode('live usage\n'));
    await page.getByTestId('usage-pinned_count').getByTestId('used').filter({ hasText: '1' }).waitFor();
    expect(await shownUsage()).toEqual(expectedUsage(await stats(user.key)));
    // The first steps go once something is stored.
    await page.getByRole('region', { name: 'Get started' }).waitFor({ state: 'detached' });
  });

  it('shows why the per-day figures could not load, with Retry', async () => {
    await page.route('**/api/v0/stats/daily*', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ code: 500, msg: 'database is locked' }) }),
    );
    await signIn(page, service);
    const error = page.getByRole('region', { name: 'Usage per day' }).getByRole('alert');
    await error.filter({ hasText: 'The service failed (500): database is locked.' }).waitFor();
    await axeCheck(page, 'Overview with an error');
    await screenshots(page, 'overview-error');
    await page.unroute('**/api/v0/stats/daily*');
    await error.getByRole('button', { name: 'Retry' }).click();
    await page.locator('.time-series-chart canvas').first().waitFor();
    expect(await page.getByRole('alert').filter({ hasText: 'database is locked' }).count()).toBe(0);
  });
});
