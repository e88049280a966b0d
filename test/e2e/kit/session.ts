import type { Page } from 'playwright-core';
import type { E2eService } from './service.js';

/**
 * Signs `page` in as the owner the way a user of `pinfold open` does: a fresh one-time sign-in link,
 * then waits for the page the app lands on (the Overview, or `waitFor` when given).
 */
export async function signIn(page: Page, service: E2eService, waitFor: { heading: string } = { heading: 'Overview' }): Promise<void> {
  await page.goto(await service.signInLink());
  await page.getByRole('heading', { level: 1, name: waitFor.heading }).waitFor();
}

/** Signs in with an access key and its secret through the form (the page must show sign-in). */
export async function signInWithKey(page: Page, key: { access_key: string; access_secret: string }): Promise<void> {
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await page.getByLabel('Access key').fill(key.access_key);
  await page.getByLabel('Access secret').fill(key.access_secret);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** The link names of the main navigation, in order. */
export async function navigationNames(page: Page): Promise<string[]> {
  const links = page.getByRole('navigation', { name: 'Main' }).getByRole('link');
  return (await links.allTextContents()).map((text) => text.trim());
}
