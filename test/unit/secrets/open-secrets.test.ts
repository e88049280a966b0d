import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, type OwnerKey } from '../../../main/app/create-app.js';
import { ownerKeyOf } from '../../helpers/owner-key.js';
import { testConfig } from '../../helpers/test-network.js';
import { MasterKeyMismatchError } from '../../../main/accounts/master-key-check.js';
import { openDatabase } from '../../../main/store/db/database.js';
import { MissingMasterKeyError } from '../../../main/secrets/open-secrets.js';
import { SecretsRecordError, type SecretsHomeKind } from '../../../main/secrets/secrets-record.js';
import { folderSnapshot } from '../../helpers/folder-snapshot.js';
import { memoryKeychain } from '../../helpers/memory-keychain.js';
import { makeTempDir } from '../../helpers/test-server.js';

const SERVICE = 'PinfoldTest';
type Keychain = ReturnType<typeof memoryKeychain>;

/** One start and clean stop of the service on a folder, as `serve` (prefer file) or the desktop (prefer keychain) does it. */
async function startOnce(dataDir: string, prefer: SecretsHomeKind, keychain: Keychain): Promise<{ owner: OwnerKey; note: string | null; where: string }> {
  const app = await createApp({
    config: testConfig({ dataDir, port: 0 }),
    env: {},
    secrets: { prefer, keychain: { service: SERVICE, entry: keychain.factory } },
  });
  const result = { owner: ownerKeyOf(app), note: app.secretsNote, where: app.secretsLocation };
  await app.close();
  return result;
}

const record = (dataDir: string): unknown => JSON.parse(readFileSync(join(dataDir, 'secrets.json'), 'utf8'));

/** Turns a keychain folder into one the desktop made before secrets.json existed: items without namespace, no record. */
function asLegacyDesktopFolder(dataDir: string, keychain: Keychain): void {
  const { keychain: where } = record(dataDir) as { keychain: { namespace: string } };
  for (const item of ['secret:master', 'owner-key']) {
    const from = `${SERVICE}\u0000${where.namespace}/${item}`;
    keychain.items.set(`${SERVICE}\u0000${item}`, keychain.items.get(from) as string);
    keychain.items.delete(from);
  }
  rmSync(join(dataDir, 'secrets.json'));
}

describe("one home for a data folder's secrets", () => {
  const dirs: string[] = [];
  afterEach(async () => {
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  });
  const folder = async () => {
    const dir = await makeTempDir('pinfold-secrets-home-');
    dirs.push(dir);
    return dir;
  };

  it('a new folder under serve keeps its keys in 0600 files and records so; the keychain is never asked', async () => {
    const dataDir = await folder();
    const keychain = memoryKeychain();
    await startOnce(dataDir, 'file', keychain);
    expect(record(dataDir)).toEqual({ version: 1, home: 'file' });
    expect(statSync(join(dataDir, 'secrets.json')).mode & 0o777).toBe(0o600);
    expect(statSync(join(dataDir, 'master.key')).mode & 0o777).toBe(0o600);
    expect(existsSync(join(dataDir, 'owner-key.json'))).toBe(true);
    expect(keychain.state.calls).toBe(0);
  });

  it('a new folder under the desktop keeps both keys in the keychain, under a namespace of its own, and no key file', async () => {
    const dataDir = await folder();
    const keychain = memoryKeychain();
    const first = await startOnce(dataDir, 'keychain', keychain);
    const saved = record(dataDir) as { home: string; keychain: { service: string; namespace: string } };
    expect(saved.home).toBe('keychain');
    expect(saved.keychain.service).toBe(SERVICE);
    expect(saved.keychain.namespace).toMatch(/^folder-[0-9a-f-]{36}$/);
    expect(keychain.accounts(SERVICE)).toEqual([`${saved.keychain.namespace}/owner-key`, `${saved.keychain.namespace}/secret:master`]);
    expect(existsSync(join(dataDir, 'master.key'))).toBe(false);
    expect(existsSync(join(dataDir, 'owner-key.json'))).toBe(false);
    // A second folder never shares the first one's items.
    const other = await folder();
    await startOnce(other, 'keychain', keychain);
    expect(keychain.accounts(SERVICE)).toHaveLength(4);
    expect((await startOnce(dataDir, 'keychain', keychain)).owner).toEqual(first.owner);
  });

  it('serve, then the desktop, then serve again, any number of times: one master key and one owner key throughout', async () => {
    for (const [first, second] of [
      ['file', 'keychain'],
      ['keychain', 'file'],
    ] as const) {
      const dataDir = await folder();
      const keychain = memoryKeychain();
      const made = await startOnce(dataDir, first, keychain);
      const itemsBefore = [...keychain.items.entries()];
      const filesBefore = [existsSync(join(dataDir, 'master.key')), existsSync(join(dataDir, 'owner-key.json'))];
      for (const prefer of [second, first, second, second, first]) {
        const again = await startOnce(dataDir, prefer, keychain);
        expect(again.owner).toEqual(made.owner);
        // The record wins over the preference, and says so when they differ.
        if (prefer === first) expect(again.note).toBeNull();
        else expect(again.note).toContain(`pinfold secrets move --to ${second}`);
      }
      // No key was written anywhere else: the keychain and the key files are as the first start left them.
      expect([...keychain.items.entries()]).toEqual(itemsBefore);
      expect([existsSync(join(dataDir, 'master.key')), existsSync(join(dataDir, 'owner-key.json'))]).toEqual(filesBefore);
    }
  });

  it('a desktop folder from before secrets.json: serve finds its key in the keychain and records it, and writes no master.key', async () => {
    const dataDir = await folder();
    const keychain = memoryKeychain();
    const desktop = await startOnce(dataDir, 'keychain', keychain);
    asLegacyDesktopFolder(dataDir, keychain);
    const serve = await startOnce(dataDir, 'file', keychain);
    expect(serve.owner).toEqual(desktop.owner);
    expect(record(dataDir)).toEqual({ version: 1, home: 'keychain', keychain: { service: SERVICE, namespace: null } });
    expect(existsSync(join(dataDir, 'master.key'))).toBe(false);
    expect(existsSync(join(dataDir, 'owner-key.json'))).toBe(false);
    expect((await startOnce(dataDir, 'keychain', keychain)).owner).toEqual(desktop.owner);
  });

  it('a folder from before secrets.json with a wrong master.key beside the right keychain key: the key that opens the folder wins', async () => {
    const dataDir = await folder();
    const keychain = memoryKeychain();
    const desktop = await startOnce(dataDir, 'keychain', keychain);
    asLegacyDesktopFolder(dataDir, keychain);
    // What the old `pinfold serve` left behind on a desktop folder: a fresh master.key that opens nothing.
    writeFileSync(join(dataDir, 'master.key'), `${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
    expect((await startOnce(dataDir, 'file', keychain)).owner).toEqual(desktop.owner);
    expect((record(dataDir) as { home: string }).home).toBe('keychain');
  });

  it('a folder from before secrets.json whose key is nowhere: refused, nothing written', async () => {
    const dataDir = await folder();
    const keychain = memoryKeychain();
    await startOnce(dataDir, 'file', keychain);
    rmSync(join(dataDir, 'secrets.json'));
    rmSync(join(dataDir, 'master.key'));
    const before = folderSnapshot(dataDir);
    for (const prefer of ['file', 'keychain'] as const) {
      await expect(startOnce(dataDir, prefer, keychain)).rejects.toThrow(MissingMasterKeyError);
      await expect(startOnce(dataDir, prefer, keychain)).rejects.toThrow(/master\.key.*holds none.*keychain.*holds none.*Nothing was written/s);
    }
    expect(folderSnapshot(dataDir)).toEqual(before);
    expect(keychain.items.size).toBe(0);
  });

  it('a missing keychain entry: a clear refusal, no new key anywhere, nothing written', async () => {
    const dataDir = await folder();
    const keychain = memoryKeychain();
    await startOnce(dataDir, 'keychain', keychain);
    const masterItem = [...keychain.items.keys()].find((id) => id.endsWith('/secret:master')) as string;
    keychain.items.delete(masterItem);
    const before = folderSnapshot(dataDir);
    const items = [...keychain.items.entries()];
    for (const prefer of ['keychain', 'file'] as const) {
      const failure = startOnce(dataDir, prefer, keychain);
      await expect(failure).rejects.toThrow(MissingMasterKeyError);
      await expect(startOnce(dataDir, prefer, keychain)).rejects.toThrow(/should be in the OS keychain .* but is not there.*Nothing was written/);
    }
    expect(folderSnapshot(dataDir)).toEqual(before);
    expect([...keychain.items.entries()]).toEqual(items);
  });

  it('a locked keychain: a clear message, nothing written, for an existing folder and for a new one', async () => {
    const dataDir = await folder();
    const keychain = memoryKeychain();
    await startOnce(dataDir, 'keychain', keychain);
    const before = folderSnapshot(dataDir);
    const items = [...keychain.items.entries()];
    keychain.state.locked = true;
    await expect(startOnce(dataDir, 'keychain', keychain)).rejects.toThrow(
      /the master key lives in the OS keychain.*could not be read: .*unlock prompt was dismissed.*Nothing was written/,
    );
    expect(folderSnapshot(dataDir)).toEqual(before);
    expect([...keychain.items.entries()]).toEqual(items);

    const fresh = await folder();
    await expect(startOnce(fresh, 'keychain', keychain)).rejects.toThrow(/unlock prompt was dismissed/);
    expect(existsSync(join(fresh, 'secrets.json'))).toBe(false);
    expect(existsSync(join(fresh, 'master.key'))).toBe(false);
  });

  it('a master key that does not open the folder: refused before the database is opened for writing', async () => {
    const dataDir = await folder();
    const keychain = memoryKeychain();
    await startOnce(dataDir, 'file', keychain);
    writeFileSync(join(dataDir, 'master.key'), `${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
    const before = folderSnapshot(dataDir);
    await expect(startOnce(dataDir, 'file', keychain)).rejects.toThrow(MasterKeyMismatchError);
    expect(folderSnapshot(dataDir)).toEqual(before);
  });

  it('a folder from before the check value opened with a wrong key: judged by a sealed access secret and refused before anything is written', async () => {
    const dataDir = await folder();
    const keychain = memoryKeychain();
    const made = await startOnce(dataDir, 'file', keychain);
    const db = openDatabase(join(dataDir, 'pinfold.db'));
    db.prepare("DELETE FROM meta WHERE key = 'master-key-check'").run();
    db.close();
    const rightKey = readFileSync(join(dataDir, 'master.key'));
    writeFileSync(join(dataDir, 'master.key'), `${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
    const before = folderSnapshot(dataDir);
    await expect(startOnce(dataDir, 'file', keychain)).rejects.toThrow(MasterKeyMismatchError);
    // Nothing written: above all no check value sealed under the wrong key, which would lock out the right one.
    expect(folderSnapshot(dataDir)).toEqual(before);
    writeFileSync(join(dataDir, 'master.key'), rightKey, { mode: 0o600 });
    expect((await startOnce(dataDir, 'file', keychain)).owner).toEqual(made.owner);
  });

  it('a record that is damaged or from a newer version is refused by name, not guessed around', async () => {
    const dataDir = await folder();
    const keychain = memoryKeychain();
    await startOnce(dataDir, 'file', keychain);
    for (const [text, problem] of [
      ['{', /is not valid JSON/],
      ['[]', /is not a JSON object/],
      ['{"version":2,"home":"file"}', /version 2/],
      ['{"version":1,"home":"cloud"}', /home "cloud"/],
      ['{"version":1,"home":"keychain"}', /names no keychain service/],
      ['{"version":1,"home":"keychain","keychain":{"service":"P","namespace":"../x"}}', /bad keychain namespace/],
    ] as const) {
      writeFileSync(join(dataDir, 'secrets.json'), text);
      const before = folderSnapshot(dataDir);
      const failure = startOnce(dataDir, 'file', keychain);
      await expect(failure).rejects.toThrow(SecretsRecordError);
      await expect(startOnce(dataDir, 'file', keychain)).rejects.toThrow(problem);
      expect(folderSnapshot(dataDir)).toEqual(before);
    }
  });
});
