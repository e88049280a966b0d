import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chooseSqliteBinding, electronBindingPath, ElectronBindingMissingError, type BindingRuntime } from '../../../main/store/db/native-binding.js';

const root = '/home/dev/pinfold';
const node: BindingRuntime = { electronVersion: undefined, resourcesPath: undefined, platform: 'linux', arch: 'x64', packageRoot: root };
const devElectron: BindingRuntime = { ...node, electronVersion: '45.4.1', resourcesPath: '/home/dev/pinfold/node_modules/electron/dist/resources' };
const built = electronBindingPath(root, '45.4.1', 'linux', 'x64');

describe('which better-sqlite3 build loads', () => {
  it("under Node (pinfold serve, the tests): better-sqlite3's own build, whatever else exists", () => {
    expect(chooseSqliteBinding(node, () => true)).toBeUndefined();
  });

  it('under Electron from a checkout (npm start): the Electron build in .electron-native, per version, platform and arch', () => {
    expect(built).toBe(join(root, '.electron-native', 'better-sqlite3', 'electron-45.4.1-linux-x64', 'better_sqlite3.node'));
    expect(chooseSqliteBinding(devElectron, (path) => path === built)).toBe(built);
    const mac = { ...devElectron, platform: 'darwin' as const, arch: 'arm64' };
    expect(chooseSqliteBinding(mac, () => true)).toBe(join(root, '.electron-native', 'better-sqlite3', 'electron-45.4.1-darwin-arm64', 'better_sqlite3.node'));
  });

  it('under Electron from a checkout without that build: a clear error naming the fix, never the Node build (which would crash)', () => {
    expect(() => chooseSqliteBinding(devElectron, () => false)).toThrow(ElectronBindingMissingError);
    expect(() => chooseSqliteBinding(devElectron, () => false)).toThrow(/no build for Electron 45\.4\.1 at .*\.electron-native.*`npm start` makes it/);
    // A build for another Electron version is not taken.
    expect(() => chooseSqliteBinding({ ...devElectron, electronVersion: '46.0.0' }, (path) => path === built)).toThrow(ElectronBindingMissingError);
  });

  it('in a packaged app (the code inside resources/app.asar): the module electron-builder rebuilt for Electron', () => {
    const packaged: BindingRuntime = {
      ...devElectron,
      resourcesPath: '/opt/Pinfold/resources',
      packageRoot: '/opt/Pinfold/resources/app.asar',
    };
    expect(chooseSqliteBinding(packaged, () => false)).toBeUndefined();
    // A look-alike folder beside resources is not inside it.
    expect(() => chooseSqliteBinding({ ...packaged, packageRoot: '/opt/Pinfold/resources-old/app' }, () => false)).toThrow(ElectronBindingMissingError);
  });
});
