import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config.js';
import { DebugLogger } from 'builder-util';
import type { Configuration } from 'electron-builder';
import { beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const pkg = JSON.parse(readFileSync(new URL('package.json', `file://${root}`), 'utf8')) as {
  main: string;
  homepage?: string;
  author?: string | { name?: string; email?: string };
};

let config: Configuration;

beforeAll(async () => {
  // electron-builder's own loader and schema check, the first thing `npm run dist` does.
  config = await getConfig(root, 'electron-builder.yml', null);
});

function targets(value: unknown): string[] {
  return (Array.isArray(value) ? value : [value]).map((item) => (typeof item === 'string' ? item : (item as { target: string }).target));
}

describe('electron-builder.yml', () => {
  it('passes electron-builder 26 schema validation', async () => {
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
  });

  it('rejects a misspelt option, so the check above means something', async () => {
    const broken = { ...config, mac: { ...config.mac, hardnedRuntime: true } } as Configuration;
    await expect(validateConfiguration(broken, new DebugLogger(false))).rejects.toThrow(/configuration/);
  });

  it('names the app and builds the targets of every platform', () => {
    expect(config.appId).toBe('org.pinfold.app');
    expect(config.productName).toBe('Pinfold');
    expect(config.directories?.output).toBe('release');
    expect(targets(config.mac?.target)).toEqual(['dmg', 'zip']);
    expect(targets(config.win?.target)).toEqual(['nsis']);
    expect(targets(config.linux?.target)).toEqual(['AppImage', 'deb']);
    expect(config.linux?.category).toBe('Utility');
  });

  it('signs macOS builds with the hardened runtime and an entitlements file that exists', () => {
    expect(config.mac?.hardenedRuntime).toBe(true);
    const entitlements = config.mac?.entitlements;
    expect(typeof entitlements).toBe('string');
    const text = readFileSync(new URL(entitlements as string, `file://${root}`), 'utf8');
    expect(text).toContain('<plist version="1.0">');
    expect(text).toContain('com.apple.security.cs.allow-jit');
  });

  it('ships the entry, the preload and the renderer, and unpacks native modules', () => {
    const filters = (config.files as Array<{ filter: string[] }>).flatMap((set) => set.filter);
    expect(pkg.main).toBe('dist/main/desktop/main.js');
    for (const needed of ['package.json', 'dist/main/**/*', 'dist/desktop/**/*', 'dist/renderer/**/*']) expect(filters).toContain(needed);
    expect(config.asarUnpack).toEqual(expect.arrayContaining(['**/node_modules/better-sqlite3/**/*', '**/node_modules/@napi-rs/keyring*/**/*']));
    expect(config.npmRebuild).toBe(true);
    expect(existsSync(new URL('build/icon.png', `file://${root}`))).toBe(true);
  });

  it('has what the deb target demands: a homepage and a maintainer e-mail', () => {
    // electron-builder's FpmTarget fails without them ("Please specify project homepage", author email).
    const authorEmail = typeof pkg.author === 'object' ? pkg.author.email : /<[^>]+@[^>]+>/.exec(pkg.author ?? '')?.[0];
    expect(pkg.homepage ?? null, 'package.json "homepage"').not.toBeNull();
    expect(config.linux?.maintainer ?? authorEmail ?? null, 'package.json "author" with an email, or linux.maintainer').not.toBeNull();
  });
});
