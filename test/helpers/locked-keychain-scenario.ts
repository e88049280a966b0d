/**
 * Run inside its own scripts/with-keyring.sh session (test/integration/secrets-locked-keychain.test.ts):
 * makes a data folder whose keys are in the keychain, locks the keychain (as a screen lock or a
 * keyring timeout does), then tries what a user would: `pinfold serve --keychain`, `pinfold secrets
 * move --to file`, and a new folder under `serve --keychain`. Prints what happened as JSON.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../../main/app/create-app.js';
import { testConfig } from './test-network.js';
import { keychainService, osKeychainEntry } from '../../main/secrets/keychain-entry.js';
import { folderSnapshot } from './folder-snapshot.js';

const repoRoot = join(import.meta.dirname, '..', '..');
const dataDir = mkdtempSync(join(tmpdir(), 'pinfold-locked-'));
const app = await createApp({
  config: testConfig({ dataDir, port: 0 }),
  env: {},
  secrets: { prefer: 'keychain', keychain: { service: keychainService(), entry: osKeychainEntry } },
});
await app.close();
const before = folderSnapshot(dataDir);

execFileSync('dbus-send', [
  '--session',
  '--dest=org.freedesktop.secrets',
  '--type=method_call',
  '--print-reply',
  '/org/freedesktop/secrets',
  'org.freedesktop.Secret.Service.Lock',
  'array:objpath:/org/freedesktop/secrets/collection/login',
]);

const cli = (...args: string[]) => {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'main/cli/main.ts', ...args], { cwd: repoRoot, encoding: 'utf8', timeout: 60_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
};
const serve = cli('serve', '--data', dataDir, '--port', '0', '--keychain', '--offline');
const move = cli('secrets', 'move', '--to', 'file', '--data', dataDir);
const unchanged = JSON.stringify(folderSnapshot(dataDir)) === JSON.stringify(before);
const fresh = mkdtempSync(join(tmpdir(), 'pinfold-locked-new-'));
const serveNew = cli('serve', '--data', fresh, '--port', '0', '--keychain', '--offline');

process.stdout.write(
  JSON.stringify({
    serve,
    move,
    unchanged,
    fresh: { serve: serveNew, secretsJson: existsSync(join(fresh, 'secrets.json')), masterKey: existsSync(join(fresh, 'master.key')) },
  }),
);
