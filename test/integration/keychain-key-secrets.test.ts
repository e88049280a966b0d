/**
 * The bridge's key secrets (keepSecret/readSecret/forgetSecret) against the real OS keychain: on Linux
 * the Secret Service of scripts/with-keyring.sh (a private, unlocked gnome-keyring). Without a session
 * bus the last block checks that keep answers false and read null instead of throwing into the window.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { AsyncEntry } from '@napi-rs/keyring';
import { afterAll, describe, expect, it } from 'vitest';
import { dataFolderTag, keychainKeySecrets } from '../../main/desktop/key-secrets.js';

const onLinux = process.platform === 'linux';
const hasSecretService = !onLinux || Boolean(process.env.DBUS_SESSION_BUS_ADDRESS);
const service = `Pinfold-test-${randomUUID()}`;
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const accessKey = randomUUID();
const secret = randomBytes(48).toString('base64url');

describe('key secrets on the OS keychain', () => {
  it('has a Secret Service to talk to (CI runs the suite under with-keyring.sh)', () => {
    expect(hasSecretService, 'no D-Bus session: run `npm test` (or `bash scripts/with-keyring.sh <command>`)').toBe(true);
  });

  afterAll(async () => {
    for (const dir of ['/data/one', '/data/two']) await new AsyncEntry(service, `key-secret:${dataFolderTag(dir)}:${accessKey}`).deletePassword();
  });

  it('keeps a secret per data folder and access key, reads it back, forgets it', async () => {
    const one = keychainKeySecrets({ dataDir: '/data/one', service });
    const two = keychainKeySecrets({ dataDir: '/data/two', service });
    expect(await one.read(accessKey)).toBeNull();
    expect(await one.keep(accessKey, secret)).toBe(true);
    expect(await one.read(accessKey)).toBe(secret);
    // A real item, under its namespaced account; the other data folder does not see it.
    expect(await new AsyncEntry(service, `key-secret:${dataFolderTag('/data/one')}:${accessKey}`).getPassword()).toBe(secret);
    expect(await two.read(accessKey)).toBeNull();
    await one.forget(accessKey);
    expect(await one.read(accessKey)).toBeNull();
    await one.forget(accessKey);
  });
});

describe('key secrets without a Secret Service', () => {
  it.runIf(onLinux)('keep answers false and read null; nothing throws at the window', () => {
    const script = `
      import { keychainKeySecrets } from './main/desktop/key-secrets.ts';
      const secrets = keychainKeySecrets({ dataDir: '/data/one', service: ${JSON.stringify(service)} });
      const kept = await secrets.keep(${JSON.stringify(accessKey)}, ${JSON.stringify(secret)});
      const read = await secrets.read(${JSON.stringify(accessKey)});
      const forget = await secrets.forget(${JSON.stringify(accessKey)}).then(() => 'forgotten', (error) => error.name);
      process.stdout.write(JSON.stringify({ kept, read, forget }));
    `;
    const env = { ...process.env };
    delete env.DBUS_SESSION_BUS_ADDRESS;
    const result = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: repoRoot, env, encoding: 'utf8' });
    expect(result.status, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ kept: false, read: null, forget: 'KeychainUnavailableError' });
  });
});
