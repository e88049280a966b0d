/**
 * A sync folder's History in Chromium against `pinfold serve`, with a real watched folder: two versions
 * and more made on disk, the timeline, a version's files, the diff, restoring a deleted file (back on disk)
 * and an overwritten one beside the local copy (both on disk), the retention policy, axe and screenshots.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SyncVersion } from '../../shared/api-types.js';
import { axeCheck, launchBrowser, newContext, screenshots, signIn, startService, type E2eService } from './kit/index.js';
import { until } from '../helpers/until.js';

let service: E2eService;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let scratch: string;

beforeAll(async () => {
  [service, browser, scratch] = await Promise.all([startService(), launchBrowser(), mkdtemp(join(tmpdir(), 'pinfold-e2e-history-'))]);
  context = await newContext(browser);
  page = await context.newPage();
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await service?.dispose();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

async function versions(id: string): Promise<SyncVersion[]> {
  const answer = await service.call<{ data: SyncVersion[] }>('GET', '/api/v0/sync/versions', { query: { id } });
  expect(answer.status, answer.text).toBe(200);
  return answer.json.data;
}

/** Waits until the folder has `count` versions (each settled batch makes one). */
function untilVersions(id: string, count: number): Promise<SyncVersion[]> {
  return until(
    `sync folder ${id} to have ${count} versions`,
    async () => {
      const listed = await versions(id);
      return listed.length >= count ? listed : undefined;
    },
    30_000,
    200,
  );
}

describe('a sync folder’s history', () => {
  it('shows the timeline, a version’s files and the diff, and restores a deleted file and an overwritten one beside', async () => {
    const folder = join(scratch, 'notes');
    await mkdir(join(folder, 'a-rather-long-folder-name-for-the-layout', 'deeper'), { recursive: true });
    await writeFile(join(folder, 'plan.txt'), 'the plan, first draft');
    await writeFile(join(folder, 'shopping.txt'), 'milk, bread');
    await writeFile(join(folder, 'a-rather-long-folder-name-for-the-layout', 'deeper', 'a file with a long name, to see how it wraps.md'), '# deep');
    const added = await service.call<{ data: { id: string } }>('POST', '/api/v0/sync/add', { body: { path: folder } });
    expect(added.status, added.text).toBe(200);
    const id = added.json.data.id;
    const [first] = await untilVersions(id, 1);
    if (!first) throw new Error('no first version');

    // Version 2: the plan rewritten, the shopping list deleted, a new file.
    await writeFile(join(folder, 'plan.txt'), 'the plan, second draft');
    await unlink(join(folder, 'shopping.txt'));
    await writeFile(join(folder, 'ideas.md'), 'more ideas');
    const [second] = await untilVersions(id, 2);
    if (!second) throw new Error('no second version');

    // The bytes only the history holds are worked out off the batch path: wait for the figure, so the
    // page (and its screenshots) show it.
    await expect
      .poll(async () => (await service.call<{ data: { history_bytes: number } }>('GET', '/api/v0/sync/detail', { query: { id } })).json.data.history_bytes, {
        timeout: 30_000,
      })
      .toBeGreaterThan(0);
    await signIn(page, service);
    await page.goto(`${service.url}/sync/${id}`);
    const history = page.getByRole('region', { name: 'History' });
    const timeline = history.getByRole('table', { name: 'Versions' });
    await timeline.getByRole('row').nth(2).waitFor();
    expect(await timeline.getByRole('row').count()).toBe(3);
    expect(await timeline.getByRole('row').nth(1).textContent()).toContain('Current');
    expect(await timeline.getByRole('row').nth(1).locator('.version-changes').getAttribute('title')).toBe('1 added, 1 modified, 1 removed');
    await expect.poll(() => history.getByText(/Every version of the last day/).count()).toBe(1);
    await history.getByText(/^History holds \d+ B that the current version does not\.$/).waitFor();
    await axeCheck(page, 'Sync folder history');
    await screenshots(page, 'sync-history');

    // The first version: its files, and what changed since.
    await timeline
      .getByRole('row')
      .nth(2)
      .getByRole('button', { name: /^Browse the version of/ })
      .click();
    const version = page.getByRole('region', { name: /^Version of / });
    const files = version.getByRole('table', { name: /^Files of notes in this version/ });
    await files.getByRole('row', { name: /shopping\.txt/ }).waitFor();
    await files.getByRole('button', { name: 'Open folder a-rather-long-folder-name-for-the-layout' }).click();
    await version.getByRole('table', { name: /^Files of a-rather-long-folder-name-for-the-layout/ }).waitFor();
    await version.getByRole('navigation', { name: 'Folder of this version' }).getByRole('button', { name: 'notes' }).click();
    await files.getByRole('row', { name: /shopping\.txt/ }).waitFor();
    const removed = version.getByRole('list', { name: 'Removed' });
    await removed.getByText('shopping.txt').waitFor();
    expect(await version.getByRole('list', { name: 'Added' }).textContent()).toContain('ideas.md');
    expect(await version.getByRole('list', { name: 'Modified' }).textContent()).toContain('plan.txt');
    await axeCheck(page, 'Sync folder version and diff');
    await screenshots(page, 'sync-history-diff');

    // Restore the deleted file from the diff: back on disk, as it was.
    await removed.getByRole('button', { name: /^Restore shopping\.txt/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Restore this file?' });
    await dialog.waitFor();
    expect(await dialog.getByRole('radio', { name: 'Keep both' }).isChecked()).toBe(true);
    await dialog.getByRole('radio', { name: 'Another folder…' }).check();
    await dialog.getByRole('textbox', { name: 'Folder to restore into' }).waitFor();
    await axeCheck(page, 'Restore dialog');
    await screenshots(page, 'sync-history-restore');
    await dialog.getByRole('radio', { name: 'The synced folder' }).check();
    await dialog.getByRole('button', { name: 'Restore' }).click();
    await page.getByText('Restored 1 file.').waitFor();
    expect(await readFile(join(folder, 'shopping.txt'), 'utf8')).toBe('milk, bread');

    // Restore the overwritten plan from the file tree, keeping both: the version's copy goes beside it.
    await files.getByRole('button', { name: 'Restore plan.txt' }).click();
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Restore' }).click();
    await page.getByText('Restored 1 file: 1 written beside the local copy.').waitFor();
    expect(await readFile(join(folder, 'plan.txt'), 'utf8')).toBe('the plan, second draft');
    const beside = (await readdir(folder)).find((name) => /^plan \(restored \d{4}-\d{2}-\d{2} \d{4}\)\.txt$/.test(name));
    expect(beside).toBeDefined();
    expect(await readFile(join(folder, beside ?? ''), 'utf8')).toBe('the plan, first draft');

    // The restores sync like any change: the timeline grows live, without a reload.
    await expect.poll(async () => timeline.getByRole('row').count(), { timeout: 30_000 }).toBeGreaterThan(3);

    // Retention: a bad custom policy is refused with the service's words; "All" is saved.
    await history.getByRole('button', { name: 'Change what is kept' }).click();
    await history.getByRole('radio', { name: 'Custom' }).check();
    await history.getByRole('textbox', { name: 'Policy' }).fill('sometimes');
    await history.getByRole('button', { name: 'Save' }).click();
    await history.locator('.field-error, .inline-error:not(.is-empty)').first().waitFor();
    await screenshots(page, 'sync-history-retention-refused');
    await history.getByRole('radio', { name: 'All' }).check();
    await history.getByRole('button', { name: 'Save' }).click();
    await history.locator('.retention-summary').getByText('Every version is kept.', { exact: false }).waitFor();
    const detail = await service.call<{ data: { retention: string } }>('GET', '/api/v0/sync/detail', { query: { id } });
    expect(detail.json.data.retention).toBe('all');
    expect(existsSync(join(folder, 'ideas.md'))).toBe(true);
  }, 120_000);
});
