import { existsSync } from 'node:fs';
import { join, relative, isAbsolute } from 'node:path';
import { packageRoot } from '../../base/package-root.js';

/**
 * Which better-sqlite3 addon to load. better-sqlite3 is built against one runtime's ABI: `npm install`
 * builds it for Node (what `pinfold serve` and the tests run on), and Electron's Node has another ABI.
 * So a development checkout keeps a second build for Electron in `.electron-native/` (made by
 * `npm start` through scripts/prepare-electron.ts) and selects it with better-sqlite3's `nativeBinding`
 * option; a packaged app needs none, because electron-builder rebuilt the module for Electron in place.
 */
export interface BindingRuntime {
  /** `process.versions.electron`: set in Electron's main and utility processes, absent under Node. */
  electronVersion: string | undefined;
  /** `process.resourcesPath`: where a packaged app's app.asar lives (Electron only). */
  resourcesPath: string | undefined;
  platform: NodeJS.Platform;
  arch: string;
  /** The folder of Pinfold's package.json. */
  packageRoot: string;
}

/** Where a development checkout keeps its better-sqlite3 build for one Electron version and platform. */
export function electronBindingPath(root: string, electronVersion: string, platform: NodeJS.Platform, arch: string): string {
  return join(root, '.electron-native', 'better-sqlite3', `electron-${electronVersion}-${platform}-${arch}`, 'better_sqlite3.node');
}

export class ElectronBindingMissingError extends Error {
  override readonly name = 'ElectronBindingMissingError';
  constructor(path: string, electronVersion: string) {
    super(
      `better-sqlite3 has no build for Electron ${electronVersion} at ${path}; \`npm start\` makes it (scripts/prepare-electron.ts), ` +
        'since the one in node_modules is built for Node and cannot load in Electron',
    );
  }
}

/** The addon path to hand to better-sqlite3, or undefined for its own build (Node, or a packaged app). */
export function chooseSqliteBinding(runtime: BindingRuntime, exists: (path: string) => boolean = existsSync): string | undefined {
  if (runtime.electronVersion === undefined) return undefined;
  if (runtime.resourcesPath !== undefined && isInside(runtime.packageRoot, runtime.resourcesPath)) return undefined;
  const path = electronBindingPath(runtime.packageRoot, runtime.electronVersion, runtime.platform, runtime.arch);
  if (!exists(path)) throw new ElectronBindingMissingError(path, runtime.electronVersion);
  return path;
}

function isInside(path: string, folder: string): boolean {
  const rel = relative(folder, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

let chosen: { path: string | undefined } | null = null;

/** The binding for this process, chosen once. */
export function nativeBinding(): string | undefined {
  chosen ??= {
    path: chooseSqliteBinding({
      electronVersion: process.versions.electron,
      resourcesPath: (process as NodeJS.Process & { resourcesPath?: string }).resourcesPath,
      platform: process.platform,
      arch: process.arch,
      packageRoot: packageRoot(),
    }),
  };
  return chosen.path;
}
