import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { electronBindingPath } from '../main/store/db/native-binding.js';

/**
 * What `npm start` must prepare before Electron can load the service: a build of better-sqlite3 for
 * Electron's ABI in `.electron-native/` (the one in node_modules stays Node's, for `npm run serve` and
 * the tests). The decision is a pure function of what the checkout holds, so it is tested without an
 * Electron binary; scripts/prepare-electron.ts carries it out.
 */
export interface ElectronCheckout {
  root: string;
  platform: NodeJS.Platform;
  arch: string;
  /** node_modules/electron's version, or null when the package is not installed. */
  electronVersion: string | null;
  /** Whether Electron's binary was downloaded (npm install does it where it can). */
  electronBinary: boolean;
  exists(path: string): boolean;
}

export type ElectronNativePlan =
  | { action: 'skip'; message: string }
  | { action: 'ready'; path: string; message: string }
  | { action: 'build'; path: string; electronVersion: string; message: string };

export function planElectronNative(checkout: ElectronCheckout): ElectronNativePlan {
  if (checkout.electronVersion === null)
    return { action: 'skip', message: 'prepare-electron: skipped: the electron package is not installed (npm install), so there is nothing to prepare for' };
  if (!checkout.electronBinary)
    return {
      action: 'skip',
      message:
        `prepare-electron: skipped: Electron ${checkout.electronVersion}'s binary is not installed (node_modules/electron/dist is missing; ` +
        '`node node_modules/electron/install.js` downloads it where the network allows), so `npm start` cannot run on this machine and ' +
        'better-sqlite3 is not built for Electron. `npm run serve` and `npm test` run under Node and need neither.',
    };
  const path = electronBindingPath(checkout.root, checkout.electronVersion, checkout.platform, checkout.arch);
  if (checkout.exists(path))
    return { action: 'ready', path, message: `prepare-electron: better-sqlite3 for Electron ${checkout.electronVersion} is ready (${path})` };
  return {
    action: 'build',
    path,
    electronVersion: checkout.electronVersion,
    message: `prepare-electron: building better-sqlite3 for Electron ${checkout.electronVersion} (${checkout.platform}-${checkout.arch}) into ${path}`,
  };
}

/** This checkout, as planElectronNative sees it. */
export function probeCheckout(root: string): ElectronCheckout {
  const electronDir = join(root, 'node_modules', 'electron');
  let electronVersion: string | null;
  try {
    electronVersion = (JSON.parse(readFileSync(join(electronDir, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    electronVersion = null;
  }
  // electron's own index.js finds the binary through path.txt, written once the download succeeded.
  const pathTxt = join(electronDir, 'path.txt');
  const binary = existsSync(pathTxt) && existsSync(join(electronDir, 'dist', readFileSync(pathTxt, 'utf8').trim()));
  return { root, platform: process.platform, arch: process.arch, electronVersion, electronBinary: binary, exists: existsSync };
}
