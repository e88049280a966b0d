/**
 * renderer/theme-boot.js runs in <head> before anything else, outside the bundle: run it here in a
 * sandbox with a stand-in document and storage, and check it agrees with renderer/lib/theme.ts.
 */
import { readFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { THEME_STORAGE_KEY } from '../../../renderer/lib/theme.js';

const source = readFileSync(new URL('../../../renderer/theme-boot.js', import.meta.url), 'utf8');

function boot(stored: string | null, storageThrows = false): string | null {
  const attributes = new Map<string, string>();
  const storage = {
    getItem: (key: string) => {
      if (storageThrows) throw new Error('SecurityError');
      return key === THEME_STORAGE_KEY ? stored : null;
    },
  };
  const documentElement = { setAttribute: (name: string, value: string) => void attributes.set(name, value) };
  runInNewContext(source, { window: { localStorage: storage }, document: { documentElement } });
  return attributes.get('data-theme') ?? null;
}

describe('theme-boot.js', () => {
  it('applies a stored Light or Dark choice before the first paint', () => {
    expect(boot('dark')).toBe('dark');
    expect(boot('light')).toBe('light');
  });

  it('leaves the page to follow the system otherwise, also when storage is refused', () => {
    expect(boot(null)).toBeNull();
    expect(boot('system')).toBeNull();
    expect(boot('"><script>')).toBeNull();
    expect(boot('dark', true)).toBeNull();
  });
});
