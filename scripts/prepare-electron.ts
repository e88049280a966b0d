/**
 * `npm start` runs this before Electron: it makes the better-sqlite3 build that Electron's utility
 * process loads (selected by main/store/db/native-binding.ts), without touching the Node build in
 * node_modules that `npm run serve` and `npm test` use. A copy of the package is rebuilt by
 * @electron/rebuild in a staging folder (Electron's prebuilt binary when one exists, else compiled
 * against Electron's headers), and only the addon is kept. Where Electron's binary is absent it says
 * so and skips: there is nothing that could start. Packaged apps do not need it (electron-builder's
 * npmRebuild rebuilds node_modules for Electron).
 */
import { copyFileSync, cpSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rebuild } from '@electron/rebuild';
import { planElectronNative, probeCheckout } from './electron-native.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const plan = planElectronNative(probeCheckout(root));
process.stdout.write(`${plan.message}\n`);

if (plan.action === 'build') {
  const stage = join(root, '.electron-native', `stage-${randomBytes(4).toString('hex')}`);
  const source = join(root, 'node_modules', 'better-sqlite3');
  const { version } = JSON.parse(readFileSync(join(source, 'package.json'), 'utf8')) as { version: string };
  try {
    mkdirSync(join(stage, 'node_modules'), { recursive: true });
    // Without its Node build: the copy is rebuilt from source (or Electron's prebuilt binary), never reused.
    const nodeBuild = join(source, 'build');
    cpSync(source, join(stage, 'node_modules', 'better-sqlite3'), {
      recursive: true,
      filter: (path) => path !== nodeBuild && !path.startsWith(nodeBuild + sep),
    });
    writeFileSync(join(stage, 'package.json'), JSON.stringify({ name: 'pinfold-electron-native', private: true, dependencies: { 'better-sqlite3': version } }));
    await rebuild({ buildPath: stage, electronVersion: plan.electronVersion, arch: process.arch, onlyModules: ['better-sqlite3'], force: true });
    mkdirSync(dirname(plan.path), { recursive: true });
    const temp = `${plan.path}.${randomBytes(4).toString('hex')}.tmp`;
    copyFileSync(join(stage, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'), temp);
    renameSync(temp, plan.path);
    process.stdout.write(`prepare-electron: done (${plan.path})\n`);
  } catch (error) {
    process.stderr.write(
      `prepare-electron: could not build better-sqlite3 for Electron ${plan.electronVersion}: ${error instanceof Error ? error.message : String(error)}\n` +
        "It needs either a prebuilt binary for this Electron (downloaded from better-sqlite3's releases) or Electron's headers and a C++ toolchain.\n",
    );
    process.exitCode = 1;
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}
