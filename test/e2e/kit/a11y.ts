import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * Runs axe-core on the page as it is now and fails on any serious or critical violation, listing each
 * rule with the elements it found (WCAG 2.1 A and AA rules, best practices included). `exclude`: selectors
 * of what is not the window's to check, such as a frame showing user content: the gateway serves that
 * with `Content-Security-Policy: sandbox`, where no script (axe's included) gets to finish, so axe would
 * wait on it forever.
 */
export async function axeCheck(page: Page, label: string, options: { exclude?: readonly string[] } = {}): Promise<void> {
  const builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']);
  for (const selector of options.exclude ?? []) builder.exclude(selector);
  const results = await builder.analyze();
  const blocking = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  const report = blocking.map(
    (violation) =>
      `${violation.impact} ${violation.id}: ${violation.help}\n${violation.nodes.map((node) => `  ${node.target.join(' ')}: ${node.failureSummary ?? ''}`).join('\n')}`,
  );
  expect(report, `axe on ${label}`).toEqual([]);
}
