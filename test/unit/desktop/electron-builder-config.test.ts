import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MacTargetHelper } from 'app-builder-lib/out/mac/MacTargetHelper.js';
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

function arches(value: unknown): unknown[] {
  return (Array.isArray(value) ? value : [value]).map((item) => (typeof item === 'string' ? undefined : (item as { arch?: unknown }).arch));
}

const exists = (path: string) => existsSync(new URL(path, `file://${root}`));

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
    expect(arches(config.mac?.target)).toEqual(['universal', 'universal']);
    expect(targets(config.win?.target)).toEqual(['nsis']);
    expect(config.nsis).toMatchObject({ oneClick: false, perMachine: false });
    expect(targets(config.linux?.target)).toEqual(['AppImage', 'deb', 'rpm']);
    expect(config.linux?.category).toBe('Utility');
  });

  it('registers ipfs:// and ipns:// and has an update feed', () => {
    expect(config.protocols).toEqual([{ name: 'IPFS link', schemes: ['ipfs', 'ipns'] }]);
    expect(config.publish).toEqual([{ provider: 'github', releaseType: 'release' }]);
    // The github provider takes the repository from package.json.
    expect(JSON.parse(readFileSync(new URL('package.json', `file://${root}`), 'utf8'))).toMatchObject({
      repository: { url: expect.stringMatching(/github\.com/) },
    });
  });

  it('uses the icons `npm run icons` makes, and ships the tray icons as a resource', () => {
    expect(config.mac?.icon).toBe('build/icon.icns');
    expect(config.win?.icon).toBe('build/icon.ico');
    expect(config.linux?.icon).toBe('build/icons');
    for (const file of [
      'build/icon.icns',
      'build/icon.ico',
      'build/icons/512x512.png',
      'build/tray/mac/idleTemplate.png',
      'build/tray/windows/error.ico',
      'build/tray/linux/paused.png',
    ]) {
      expect(exists(file), file).toBe(true);
    }
    expect(config.extraResources).toEqual([{ from: 'build/tray', to: 'tray' }]);
  });

  it('notarizes only with Apple credentials in the environment, and skips without them', () => {
    expect(config.mac?.notarize).toBe(true);
    const saved = { ...process.env };
    try {
      for (const name of Object.keys(process.env)) if (name.startsWith('APPLE_')) delete process.env[name];
      expect(MacTargetHelper.getNotarizeOptions('/tmp/Pinfold.app')).toBeUndefined();
      Object.assign(process.env, { APPLE_API_KEY: '/secrets/AuthKey.p8', APPLE_API_KEY_ID: 'KEYID', APPLE_API_ISSUER: 'issuer-uuid' });
      expect(MacTargetHelper.getNotarizeOptions('/tmp/Pinfold.app')).toMatchObject({ appPath: '/tmp/Pinfold.app', appleApiKeyId: 'KEYID' });
    } finally {
      for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
      Object.assign(process.env, saved);
    }
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
    expect(exists('build/icon.png')).toBe(true);
  });

  it('has what the deb target demands: a homepage and a maintainer e-mail', () => {
    // electron-builder's FpmTarget fails without them ("Please specify project homepage", author email).
    const authorEmail = typeof pkg.author === 'object' ? pkg.author.email : /<[^>]+@[^>]+>/.exec(pkg.author ?? '')?.[0];
    expect(pkg.homepage ?? null, 'package.json "homepage"').not.toBeNull();
    expect(config.linux?.maintainer ?? authorEmail ?? null, 'package.json "author" with an email, or linux.maintainer').not.toBeNull();
  });
});
