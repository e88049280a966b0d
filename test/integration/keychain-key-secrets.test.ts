/**
 * The bridge's key secrets (keepSecret/readSecret/forgetSecret) against the real OS keychain: on Linux the
 * Secret Service of scripts/with-keyring.sh (a private, unlocked gnome-keyring). They follow the data folder
 * (issue 22, item 10): filed under its keychain namespace, found after the folder moved, moved by `pinfold
 * secrets move` both ways, and those filed the old way (under a hash of the path) moved to their place.
 * Without a session bus the last block checks that keep answers false and read null instead of throwing.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AsyncEntry } from '@napi-rs/keyring';
import { afterAll, describe, expect, it } from 'vitest';
import { keychainKeySecrets } from '../../main/desktop/key-secrets.js';
import { legacyFolderTag } from '../../main/secrets/kept-key-secrets.js';
import { osKeychainEntry } from '../../main/secrets/keychain-entry.js';
import { openSecrets } from '../../main/secrets/open-secrets.js';
import { readSecretsRecord } from '../../main/secrets/secrets-record.js';
import { runCli } from '../helpers/account-api.js';
import { makeTempDir } from '../helpers/test-server.js';

const onLinux = process.platform === 'linux';
const hasSecretService = !onLinux || Boolean(process.env.DBUS_SESSION_BUS_ADDRESS);
const service = `Pinfold-test-${randomUUID()}`;
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const accessKey = randomUUID();
const oldKey = randomUUID();
const secret = randomBytes(48).toString('base64url');
const oldSecret = randomBytes(48).toString('base64url');
const item = (account: string) => new AsyncEntry(service, account, { linux: { store: 'secret-service' } });

/** The keychain namespace secrets.json records for the folder. */
async function namespaceOf(dataDir: string): Promise<string | null> {
  const home = await readSecretsRecord(dataDir);
  return home?.kind === 'keychain' ? home.namespace : null;
}

describe('kept key secrets on the OS keychain follow the data folder', () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('has a Secret Service to talk to (CI runs the suite under with-keyring.sh)', () => {
    expect(hasSecretService, 'no D-Bus session: run `npm test` (or `bash scripts/with-keyring.sh <command>`)').toBe(true);
  });

  it("keeps a secret under the folder's namespace, finds it after the folder moved, and `pinfold secrets move` carries it both ways", async () => {
    const parent = await makeTempDir('pinfold-kept-real-');
    cleanups.push(() => rm(parent, { recursive: true, force: true }));
    const first = join(parent, 'first');
    await mkdir(first);
    // The service's first start on a desktop folder: its secrets in the keychain, under a namespace of its own.
    await openSecrets({ dataDir: first, prefer: 'keychain', keychain: { service, entry: osKeychainEntry } });
    const namespace = await namespaceOf(first);
    cleanups.push(async () => {
      for (const name of ['secret:master', 'owner-key', `key-secret:${accessKey}`]) await item(`${namespace}/${name}`).deletePassword();
    });
    // A secret kept the old way, under a hash of the folder's path, before this version.
    const legacy = `key-secret:${legacyFolderTag(first)}:${oldKey}`;
    await item(legacy).setPassword(oldSecret);
    cleanups.push(() => item(legacy).deletePassword());

    const atFirst = keychainKeySecrets({ dataDir: first, service });
    expect(await atFirst.keep(accessKey, secret)).toBe(true);
    expect(await item(`${namespace}/key-secret:${accessKey}`).getPassword()).toBe(secret);

    // The folder moves (the old versions lost its kept secrets here).
    const second = join(parent, 'second');
    await rename(first, second);
    const atSecond = keychainKeySecrets({ dataDir: second, service });
    expect(await atSecond.read(accessKey)).toBe(secret);
    expect(await atSecond.read(oldKey)).toBe(oldSecret);
    expect(await item(legacy).getPassword()).toBeNull();
    expect(await item(`${namespace}/key-secret:${oldKey}`).getPassword()).toBe(oldSecret);

    // To files: sealed in the folder, nothing left in the keychain.
    const env = { PINFOLD_KEYCHAIN_SERVICE: service };
    const toFile = await runCli(['secrets', 'move', '--to', 'file', '--data', second], env);
    expect(toFile.code, toFile.stderr).toBe(0);
    expect(toFile.stdout).toContain('moved the master key, the owner key and 2 kept key secrets');
    for (const key of [accessKey, oldKey]) expect(await item(`${namespace}/key-secret:${key}`).getPassword()).toBeNull();
    const sealed = readFileSync(join(second, 'key-secrets.json'), 'utf8');
    expect(sealed).not.toContain(secret);
    expect(await keychainKeySecrets({ dataDir: second, service }).read(accessKey)).toBe(secret);
    expect((await runCli(['secrets', 'where', '--data', second], env)).stdout).toContain('2 key secret(s) the desktop app keeps, sealed under the master key');

    // And back, under the folder's new namespace.
    const toKeychain = await runCli(['secrets', 'move', '--to', 'keychain', '--data', second], env);
    expect(toKeychain.code, toKeychain.stderr).toBe(0);
    const again = await namespaceOf(second);
    cleanups.push(async () => {
      for (const name of ['secret:master', 'owner-key', `key-secret:${accessKey}`, `key-secret:${oldKey}`]) await item(`${again}/${name}`).deletePassword();
    });
    expect(again).not.toBe(namespace);
    expect(await item(`${again}/key-secret:${accessKey}`).getPassword()).toBe(secret);
    expect(await item(`${again}/key-secret:${oldKey}`).getPassword()).toBe(oldSecret);
    const back = keychainKeySecrets({ dataDir: second, service });
    expect(await back.read(oldKey)).toBe(oldSecret);
    await back.forget(accessKey);
    expect(await item(`${again}/key-secret:${accessKey}`).getPassword()).toBeNull();
    expect(await back.read(accessKey)).toBeNull();
  });
});

describe('key secrets without a Secret Service', () => {
  it.runIf(onLinux)('keep answers false and read null; nothing throws at the window', async () => {
    const dataDir = await makeTempDir('pinfold-kept-nobus-');
    try {
      writeFileSync(join(dataDir, 'secrets.json'), JSON.stringify({ version: 1, home: 'keychain', keychain: { service, namespace: 'folder-test' } }));
      const script = `
        import { keychainKeySecrets } from './main/desktop/key-secrets.ts';
        const secrets = keychainKeySecrets({ dataDir: ${JSON.stringify(dataDir)}, service: ${JSON.stringify(service)} });
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
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
