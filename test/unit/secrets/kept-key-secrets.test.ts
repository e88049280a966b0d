/**
 * The key secrets the desktop window keeps follow the data folder (issue 22, item 10): filed under the
 * folder's own keychain namespace (or sealed in the folder when its secrets are files), found again after
 * the folder moved, and those filed the old way (under a hash of the folder's path) moved to their place.
 * On the in-memory keychain; test/integration/keychain-key-secrets.test.ts does the same on the real one.
 */
import { readFileSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { keychainKeySecrets } from '../../../main/desktop/key-secrets.js';
import { legacyFolderTag } from '../../../main/secrets/kept-key-secrets.js';
import { KeychainUnavailableError, type KeychainEntryFactory } from '../../../main/secrets/keychain-entry.js';
import { openSecrets } from '../../../main/secrets/open-secrets.js';
import { readSecretsRecord, type SecretsHomeKind } from '../../../main/secrets/secrets-record.js';
import { memoryKeychain } from '../../helpers/memory-keychain.js';
import { makeTempDir } from '../../helpers/test-server.js';
import { parseKeySecretsFile } from '../../../main/secrets/key-secrets-file.js';

const SERVICE = 'PinfoldTest';
/** What key-secrets.json lists, read through its own parser. */
const listed = (dataDir: string) => parseKeySecretsFile(readFileSync(join(dataDir, 'key-secrets.json'), 'utf8'), 'key-secrets.json');
const KEY = '3f0c1c9e-6a7e-4c43-9d3e-2b5c0f6e9a11';
const OTHER = '9b2d7c1e-0f3a-4e5b-8c6d-7e8f9a0b1c2d';
const SECRET = 'S'.repeat(32) + 'e'.repeat(32);

describe('kept key secrets follow the data folder', () => {
  const dirs: string[] = [];
  afterEach(async () => {
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  });

  /** A data folder opened once with its secrets at `home` (what the service does at its first start). */
  async function folder(home: SecretsHomeKind, entry: KeychainEntryFactory): Promise<{ parent: string; dataDir: string }> {
    const parent = await makeTempDir('pinfold-kept-');
    dirs.push(parent);
    const dataDir = join(parent, 'data');
    await mkdir(dataDir);
    await openSecrets({ dataDir, prefer: home, keychain: { service: SERVICE, entry } });
    return { parent, dataDir };
  }
  const store = (dataDir: string, entry: KeychainEntryFactory) => keychainKeySecrets({ dataDir, service: SERVICE, entry });

  it("keychain home: one item under the folder's namespace; found again after the folder moved; forget removes it", async () => {
    const keychain = memoryKeychain();
    const { parent, dataDir } = await folder('keychain', keychain.factory);
    const home = await readSecretsRecord(dataDir);
    const namespace = home?.kind === 'keychain' ? home.namespace : null;
    expect(await store(dataDir, keychain.factory).keep(KEY, SECRET)).toBe(true);
    expect(keychain.accounts(SERVICE)).toContain(`${namespace}/key-secret:${KEY}`);
    expect(listed(dataDir).keys).toEqual({ [KEY]: { keychain: true } });

    const moved = join(parent, 'moved');
    await rename(dataDir, moved);
    const there = store(moved, keychain.factory);
    expect(await there.read(KEY)).toBe(SECRET);
    expect(await there.read(OTHER)).toBeNull();
    await there.forget(KEY);
    expect(await there.read(KEY)).toBeNull();
    expect(keychain.accounts(SERVICE).filter((name) => name.includes('key-secret'))).toEqual([]);
    // Forgetting what is not kept is no error.
    await there.forget(KEY);
  });

  it('file home: sealed under the master key in the folder (no keychain item, no plaintext); found again after the folder moved', async () => {
    const keychain = memoryKeychain();
    const { parent, dataDir } = await folder('file', keychain.factory);
    expect(await store(dataDir, keychain.factory).keep(KEY, SECRET)).toBe(true);
    expect(keychain.items.size).toBe(0);
    const text = readFileSync(join(dataDir, 'key-secrets.json'), 'utf8');
    expect(text).not.toContain(SECRET);
    expect(parseKeySecretsFile(text, 'key-secrets.json').keys[KEY]).toEqual({ sealed: expect.stringMatching(/^[A-Za-z0-9+/]+=*$/) });

    const moved = join(parent, 'elsewhere');
    await rename(dataDir, moved);
    expect(await store(moved, keychain.factory).read(KEY)).toBe(SECRET);
    await store(moved, keychain.factory).forget(KEY);
    expect(listed(moved).keys).toEqual({});
  });

  it('kept the old way (under a hash of the path): the first open records the tag, and the secret moves to its place, also after the folder moved', async () => {
    const keychain = memoryKeychain();
    const { parent, dataDir } = await folder('keychain', keychain.factory);
    const legacy = `key-secret:${legacyFolderTag(dataDir)}:${KEY}`;
    await keychain.factory(SERVICE, legacy).setPassword(SECRET);
    // The desktop app opens the folder (its first open with this version); later the folder moves.
    const opened = store(dataDir, keychain.factory);
    expect(await opened.read(OTHER)).toBeNull();
    expect(listed(dataDir).legacyTags).toEqual([legacyFolderTag(dataDir)]);
    const moved = join(parent, 'moved');
    await rename(dataDir, moved);

    expect(await store(moved, keychain.factory).read(KEY)).toBe(SECRET);
    expect(keychain.accounts(SERVICE)).not.toContain(legacy);
    expect(keychain.accounts(SERVICE).filter((name) => name.endsWith(`/key-secret:${KEY}`))).toHaveLength(1);
    expect(listed(moved).keys).toEqual({ [KEY]: { keychain: true } });
  });

  it('a keychain that does not answer: keep says false, read says null, forget rejects with the reason', async () => {
    const keychain = memoryKeychain();
    const { dataDir } = await folder('keychain', keychain.factory);
    const locked: KeychainEntryFactory = (service) => {
      const fail = async (): Promise<never> => Promise.reject(new KeychainUnavailableError(service, new Error('the keyring is locked')));
      return { getPassword: fail, setPassword: fail, deletePassword: fail };
    };
    const secrets = store(dataDir, locked);
    expect(await secrets.keep(KEY, SECRET)).toBe(false);
    expect(await secrets.read(KEY)).toBeNull();
    await expect(secrets.forget(KEY)).rejects.toThrow(/locked/);
  });

  it('a folder with no secrets home yet keeps nothing', async () => {
    const keychain = memoryKeychain();
    const parent = await makeTempDir('pinfold-kept-');
    dirs.push(parent);
    const secrets = store(parent, keychain.factory);
    expect(await secrets.keep(KEY, SECRET)).toBe(false);
    expect(await secrets.read(KEY)).toBeNull();
    expect(keychain.items.size).toBe(0);
  });
});
