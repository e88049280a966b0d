/**
 * Chromium for the e2e tests: /usr/bin/chromium (npm test installs it on Debian/Ubuntu), headless,
 * with the flags a container needs. One browser a test file; one context (cookies, storage) a test.
 */
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}

/** A fresh context at the desktop window's size, with clipboard access for the Copy buttons. */
export async function newContext(browser: Browser, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, colorScheme: 'light', ...options });
  context.setDefaultTimeout(20_000);
  return context;
}
