import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planElectronNative, probeCheckout, type ElectronCheckout } from '../../../scripts/electron-native.js';
import { repoRoot } from '../arch-rules.js';

const checkout = (overrides: Partial<ElectronCheckout> = {}): ElectronCheckout => ({
  root: '/src/pinfold',
  platform: 'linux',
  arch: 'x64',
  electronVersion: '45.4.1',
  electronBinary: true,
  exists: () => false,
  ...overrides,
});

describe('what npm start prepares for Electron', () => {
  it('builds better-sqlite3 for Electron when its build is missing', () => {
    expect(planElectronNative(checkout())).toEqual({
      action: 'build',
      path: join('/src/pinfold', '.electron-native', 'better-sqlite3', 'electron-45.4.1-linux-x64', 'better_sqlite3.node'),
      electronVersion: '45.4.1',
      message: expect.stringContaining('building better-sqlite3 for Electron 45.4.1 (linux-x64)') as string,
    });
  });

  it('reuses a build for the same Electron, platform and arch', () => {
    expect(planElectronNative(checkout({ exists: () => true })).action).toBe('ready');
  });

  it('skips with a clear message where Electron cannot run (no binary), or is not installed', () => {
    const noBinary = planElectronNative(checkout({ electronBinary: false }));
    expect(noBinary.action).toBe('skip');
    expect(noBinary.message).toContain("Electron 45.4.1's binary is not installed");
    expect(noBinary.message).toContain('`npm run serve` and `npm test` run under Node');
    expect(planElectronNative(checkout({ electronVersion: null })).message).toContain('the electron package is not installed');
  });

  it('sees this checkout as it is', () => {
    const here = probeCheckout(repoRoot);
    expect(here.electronVersion).toMatch(/^\d+\.\d+\.\d+/);
    expect(typeof here.electronBinary).toBe('boolean');
  });
});
