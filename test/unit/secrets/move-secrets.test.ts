import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, type OwnerKey } from '../../../main/app/create-app.js';
import { ownerKeyOf } from '../../helpers/owner-key.js';
import { testConfig } from '../../helpers/test-network.js';
import { DataFolderLockedError } from '../../../main/base/lock-file.js';
import type { KeychainEntryFactory } from '../../../main/secrets/keychain-entry.js';
import { moveSecrets, NothingToMoveError } from '../../../main/secrets/move-secrets.js';
import { readSecretsRecord, type SecretsHomeKind } from '../../../main/secrets/secrets-record.js';
import { keychainKeySecrets } from '../../../main/desktop/key-secrets.js';
import { folderSnapshot } from '../../helpers/folder-snapshot.js';
import { memoryKeychain } from '../../helpers/memory-keychain.js';
import { makeTempDir } from '../../helpers/test-server.js';
import { parseKeySecretsFile } from '../../../main/secrets/key-secrets-file.js';

const SERVICE = 'PinfoldTest';
/** What key-secrets.json lists, read through its own parser. */
const listed = (dataDir: string) => parseKeySecretsFile(readFileSync(join(dataDir, 'key-secrets.json'), 'utf8'), 'key-secrets.json');

async function startOnce(dataDir: string, prefer: SecretsHomeKind, entry: KeychainEntryFactory): Promise<OwnerKey> {
  const app = await createApp({ config: testConfig({ dataDir, port: 0 }), env: {}, secrets: { prefer, keychain: { service: SERVICE, entry } } });
  const owner = ownerKeyOf(app);
  await app.close();
  return owner;
}

describe('pinfold secrets move', () => {
  const dirs: string[] = [];
  afterEach(async () => {
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  });
  const folder = async () => {
    const dir = await makeTempDir('pinfold-secrets-move-');
    dirs.push(dir);
    return dir;
  };

  it('files to the keychain and back: both keys go, the old copies are removed, the folder opens with the same owner key', async () => {
    const dataDir = await folder();
    const keychain = memoryKeychain();
    const owner = await startOnce(dataDir, 'file', keychain.factory);
    const result = await moveSecrets({ dataDir, to: 'keychain', keychain: { service: SERVICE, entry: keychain.factory } });
    expect(result).toMatchObject({ moved: true, from: `files in ${dataDir} (master.key, owner-key.json)`, leftBehind: [] });
    expect(existsSync(join(dataDir, 'master.key'))).toBe(false);
    expect(existsSync(join(dataDir, 'owner-key.json'))).toBe(false);
    expect(keychain.accounts(SERVICE)).toHaveLength(2);
    expect(await startOnce(dataDir, 'file', keychain.factory)).toEqual(owner);

    const back = await moveSecrets({ dataDir, to: 'file', keychain: { service: SERVICE, entry: keychain.factory } });
    expect(back.moved).toBe(true);
    expect(keychain.items.size).toBe(0);
    expect(JSON.parse(readFileSync(join(dataDir, 'owner-key.json'), 'utf8'))).toEqual(owner);
    expect(await startOnce(dataDir, 'keychain', keychain.factory)).toEqual(owner);
  });

  it('the key secrets the desktop window keeps move too: into the new keychain namespace, sealed into the folder, and back', async () => {
    const dataDir = await folder();
    const keychain = memoryKeychain();
    await startOnce(dataDir, 'keychain', keychain.factory);
    const kept = () => keychainKeySecrets({ dataDir, service: SERVICE, entry: keychain.factory });
    const [one, two] = ['3f0c1c9e-6a7e-4c43-9d3e-2b5c0f6e9a11', '9b2d7c1e-0f3a-4e5b-8c6d-7e8f9a0b1c2d'] as const;
    expect(await kept().keep(one, 'a'.repeat(64))).toBe(true);
    expect(await kept().keep(two, 'b'.repeat(64))).toBe(true);
    const keySecretItems = () => keychain.accounts(SERVICE).filter((name) => name.includes('/key-secret:'));
    expect(keySecretItems()).toHaveLength(2);

    const toFile = await moveSecrets({ dataDir, to: 'file', keychain: { service: SERVICE, entry: keychain.factory } });
    expect(toFile).toMatchObject({ moved: true, keptSecrets: 2, keptMissing: [], leftBehind: [] });
    expect(keychain.items.size).toBe(0);
    const sealed = readFileSync(join(dataDir, 'key-secrets.json'), 'utf8');
    expect(sealed).not.toContain('a'.repeat(64));
    expect(Object.values(parseKeySecretsFile(sealed, 'key-secrets.json').keys).every((place) => 'sealed' in place)).toBe(true);
    expect([await kept().read(one), await kept().read(two)]).toEqual(['a'.repeat(64), 'b'.repeat(64)]);

    const back = await moveSecrets({ dataDir, to: 'keychain', keychain: { service: SERVICE, entry: keychain.factory } });
    expect(back).toMatchObject({ moved: true, keptSecrets: 2, leftBehind: [] });
    const home = await readSecretsRecord(dataDir);
    const namespace = home?.kind === 'keychain' ? home.namespace : 'none';
    expect(keySecretItems().sort()).toEqual([`${namespace}/key-secret:${one}`, `${namespace}/key-secret:${two}`].sort());
    expect(listed(dataDir).keys).toEqual({ [one]: { keychain: true }, [two]: { keychain: true } });
    expect([await kept().read(one), await kept().read(two)]).toEqual(['a'.repeat(64), 'b'.repeat(64)]);
  });

  it('to where they already are: nothing moves', async () => {
    const dataDir = await folder();
    const keychain = memoryKeychain();
    await startOnce(dataDir, 'file', keychain.factory);
    const before = folderSnapshot(dataDir);
    expect((await moveSecrets({ dataDir, to: 'file', keychain: { service: SERVICE, entry: keychain.factory } })).moved).toBe(false);
    expect(folderSnapshot(dataDir)).toEqual(before);
  });

  it('a keychain that takes a write but loses it: the move stops before the record, the files stay in force', async () => {
    const dataDir = await folder();
    const keychain = memoryKeychain();
    const owner = await startOnce(dataDir, 'file', keychain.factory);
    const before = folderSnapshot(dataDir);
    const forgetful: KeychainEntryFactory = (service, account) => ({ ...keychain.factory(service, account), getPassword: async () => null });
    await expect(moveSecrets({ dataDir, to: 'keychain', keychain: { service: SERVICE, entry: forgetful } })).rejects.toThrow(
      /did not keep the keys written to it; the secrets stay in files/,
    );
    expect(folderSnapshot(dataDir)).toEqual(before);
    expect(await startOnce(dataDir, 'file', keychain.factory)).toEqual(owner);
  });

  it('a locked keychain: refused with its reason, nothing written', async () => {
    const dataDir = await folder();
    const keychain = memoryKeychain();
    await startOnce(dataDir, 'file', keychain.factory);
    keychain.state.locked = true;
    const before = folderSnapshot(dataDir);
    await expect(moveSecrets({ dataDir, to: 'keychain', keychain: { service: SERVICE, entry: keychain.factory } })).rejects.toThrow(
      /unlock prompt was dismissed/,
    );
    expect(folderSnapshot(dataDir)).toEqual(before);
    expect(keychain.items.size).toBe(0);
  });

  it('refused while a server holds the folder, and for a folder that was never started', async () => {
    const dataDir = await folder();
    const keychain = memoryKeychain();
    await startOnce(dataDir, 'file', keychain.factory);
    // The lock of a live process other than this one (the test runner's parent), as a running server leaves it.
    writeFileSync(join(dataDir, 'pinfold.lock'), String(process.ppid));
    const before = folderSnapshot(dataDir);
    await expect(moveSecrets({ dataDir, to: 'keychain', keychain: { service: SERVICE, entry: keychain.factory } })).rejects.toThrow(DataFolderLockedError);
    expect(folderSnapshot(dataDir)).toEqual(before);
    expect(keychain.items.size).toBe(0);
    const empty = await folder();
    await expect(moveSecrets({ dataDir: empty, to: 'keychain', keychain: { service: SERVICE, entry: keychain.factory } })).rejects.toThrow(NothingToMoveError);
  });
});
