/**
 * The desktop's keychain stores against the real OS keychain. On Linux that is the Secret Service:
 * `npm test` runs the suite under scripts/with-keyring.sh, which starts a private D-Bus session with an
 * unlocked gnome-keyring and a fresh XDG_DATA_HOME. Without a session bus the second block runs
 * instead and checks that the store fails loudly rather than falling back to a keyring that forgets.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { readFile } from 'node:fs/promises';
import { AsyncEntry } from '@napi-rs/keyring';
import { afterAll, describe, expect, it } from 'vitest';
import { keychainOwnerKeyStore } from '../../main/secrets/keychain-owner-key-store.js';
import { keychainSecretStore } from '../../main/secrets/keychain-secret-store.js';
import { until } from '../helpers/until.js';
import { filesUnder } from '../helpers/files-under.js';

const onLinux = process.platform === 'linux';
const hasSecretService = !onLinux || Boolean(process.env.DBUS_SESSION_BUS_ADDRESS);
const service = `Pinfold-test-${randomUUID()}`;
const otherService = `${service}-other`;
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

async function snapshot(dir: string): Promise<Map<string, Buffer>> {
  const files = await filesUnder(dir);
  return new Map(await Promise.all(files.map(async (file) => [file, await readFile(file)] as const)));
}

/** Polls until the keyring files differ from `before` (gnome-keyring writes them itself), with a deadline. */
function keyringFilesChange(dir: string, before: Map<string, Buffer>, deadlineMs = 10_000): Promise<Map<string, Buffer>> {
  return until(
    `a keyring file under ${dir} to change`,
    async () => {
      const now = await snapshot(dir);
      return [...now].some(([file, bytes]) => !before.get(file)?.equals(bytes)) ? now : undefined;
    },
    deadlineMs,
  );
}

describe('keychain stores on the OS keychain', () => {
  it('has a Secret Service to talk to (CI runs the suite under with-keyring.sh)', () => {
    expect(hasSecretService, 'no D-Bus session: run `npm test` (or `bash scripts/with-keyring.sh <command>`)').toBe(true);
  });

  afterAll(async () => {
    for (const [svc, account] of [
      [service, 'secret:master'],
      [service, 'secret:other'],
      [otherService, 'secret:master'],
      [service, 'owner-key'],
    ] as const) {
      await new AsyncEntry(svc, account).deletePassword();
    }
  });

  it('stores a secret, reads it back, and overwrites it', async () => {
    const store = keychainSecretStore({ service });
    expect(await store.get('master')).toBeNull();
    const first = randomBytes(32);
    await store.set('master', first);
    expect(await store.get('master')).toEqual(first);
    // It is a real keychain item: a separate handle on the same service and account sees it.
    expect(await new AsyncEntry(service, 'secret:master').getPassword()).toBe(first.toString('base64'));

    const second = randomBytes(32);
    await store.set('master', second);
    expect(await store.get('master')).toEqual(second);
    expect(await keychainSecretStore({ service }).get('master')).toEqual(second);
  });

  it('keeps items apart by service and by secret name', async () => {
    const a = keychainSecretStore({ service });
    const b = keychainSecretStore({ service: otherService });
    const value = randomBytes(32);
    await a.set('other', value);
    expect(await b.get('other')).toBeNull();
    await b.set('master', randomBytes(32));
    expect(await a.get('other')).toEqual(value);
    expect(await b.get('master')).not.toEqual(await a.get('master'));
  });

  it('keeps the owner key as one item', async () => {
    const store = keychainOwnerKeyStore({ service });
    const key = { access_key: randomUUID(), access_secret: randomBytes(48).toString('base64url') };
    expect(await store.load()).toBeNull();
    await store.save(key);
    expect(await keychainOwnerKeyStore({ service }).load()).toEqual(key);
  });

  it.runIf(onLinux && process.env.XDG_DATA_HOME)('never writes the secret in plaintext to disk', async () => {
    const dataHome = process.env.XDG_DATA_HOME as string;
    const before = await snapshot(dataHome);
    const secret = randomBytes(32);
    await keychainSecretStore({ service }).set('master', secret);
    const after = await keyringFilesChange(dataHome, before);
    expect(after.size).toBeGreaterThan(0);
    const needles = [secret, Buffer.from(secret.toString('base64')), Buffer.from(secret.toString('hex'))];
    for (const [file, bytes] of after) {
      for (const needle of needles) expect(bytes.includes(needle), `${file} holds the secret`).toBe(false);
    }
  });
});

describe('keychain stores without a Secret Service', () => {
  // A child process without a session bus, so this runs beside the real-keychain tests above.
  it.runIf(onLinux)('fail loudly instead of falling back to the kernel keyring, which forgets at reboot', () => {
    const script = `
      import { keychainSecretStore } from './main/secrets/keychain-secret-store.ts';
      import { keychainOwnerKeyStore } from './main/secrets/keychain-owner-key-store.ts';
      import { KeychainUnavailableError } from './main/secrets/keychain-entry.ts';
      const service = ${JSON.stringify(service)};
      const outcomes = [];
      for (const attempt of [
        () => keychainSecretStore({ service }).get('master'),
        () => keychainSecretStore({ service }).set('master', Buffer.alloc(32, 7)),
        () => keychainOwnerKeyStore({ service }).load(),
      ]) {
        try { await attempt(); outcomes.push('stored'); }
        catch (error) { outcomes.push(error instanceof KeychainUnavailableError ? 'unavailable' : String(error.message)); }
      }
      process.stdout.write(JSON.stringify(outcomes));
    `;
    const env = { ...process.env };
    delete env.DBUS_SESSION_BUS_ADDRESS;
    const result = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: repoRoot, env, encoding: 'utf8' });
    expect(result.status, result.stderr).toBe(0);
    const [get, set, load] = JSON.parse(result.stdout) as string[];
    expect(get).toBe('unavailable');
    expect(set).toMatch(/keeps its keys in|unavailable/);
    expect(load).toBe('unavailable');
  });
});
