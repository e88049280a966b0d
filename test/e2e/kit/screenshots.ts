import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';

/** Where the screenshots go (gitignored): test-artifacts/screenshots/<name>-<theme>-<width>.png. */
export const SCREENSHOT_DIR = fileURLToPath(new URL('../../../test-artifacts/screenshots/', import.meta.url));

export const SCREENSHOT_WIDTHS = [1280, 480] as const;
export const SCREENSHOT_THEMES = ['light', 'dark'] as const;

/**
 * Full-page screenshots of the page as it is, in light and dark (the system preference, which the
 * default "System" theme follows) at 1280 and 480 pixels wide. The page's viewport and colour scheme
 * are put back afterwards. Answers the files written.
 */
export async function screenshots(page: Page, name: string): Promise<string[]> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  const viewport = page.viewportSize() ?? { width: 1280, height: 860 };
  const written: string[] = [];
  try {
    for (const theme of SCREENSHOT_THEMES) {
      await page.emulateMedia({ colorScheme: theme });
      for (const width of SCREENSHOT_WIDTHS) {
        await page.setViewportSize({ width, height: viewport.height });
        // From the top, so the sticky header is captured where it belongs (focus may have scrolled the page);
        // then two frames: layout (and the charts' resize observers) settle before the capture.
        await page.evaluate('window.scrollTo(0, 0)');
        await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))');
        const path = join(SCREENSHOT_DIR, `${name}-${theme}-${width}.png`);
        await page.screenshot({ path, fullPage: true, animations: 'disabled' });
        written.push(path);
      }
    }
  } finally {
    await page.setViewportSize(viewport);
    await page.emulateMedia({ colorScheme: 'light' });
  }
  return written;
}
