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
import type { SecretsHomeKind } from '../../../main/secrets/secrets-record.js';
import { folderSnapshot } from '../../helpers/folder-snapshot.js';
import { memoryKeychain } from '../../helpers/memory-keychain.js';
import { makeTempDir } from '../../helpers/test-server.js';

const SERVICE = 'PinfoldTest';

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
