import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MasterKeyFileError, readMasterKeyFile } from '../../../main/secrets/master-key-file.js';
import { FileSecretStore, MASTER_KEY_NAME } from '../../../main/secrets/secret-store.js';

describe('--master-key-file', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pinfold-master-key-file-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("reads a data folder's own master.key as it is (the first instance's key, copied)", async () => {
    const key = randomBytes(32);
    await new FileSecretStore(dir).set(MASTER_KEY_NAME, key);
    expect((await readMasterKeyFile(join(dir, 'master.key'))).equals(key)).toBe(true);
  });

  it('accepts 0400 as well as 0600', async () => {
    const key = randomBytes(32);
    const path = join(dir, 'read-only.key');
    writeFileSync(path, key.toString('base64'), { mode: 0o400 });
    expect((await readMasterKeyFile(path)).equals(key)).toBe(true);
  });

  it('refuses a file others may read, a missing file, and anything but 32 bytes in base64', async () => {
    const open = join(dir, 'open.key');
    writeFileSync(open, randomBytes(32).toString('base64'), { mode: 0o640 });
    await expect(readMasterKeyFile(open)).rejects.toThrow(/readable by others \(mode 640\)/);
    await expect(readMasterKeyFile(join(dir, 'none.key'))).rejects.toThrow(/does not exist/);
    for (const [name, text] of [
      ['short', randomBytes(31).toString('base64')],
      ['long', randomBytes(33).toString('base64')],
      ['hex', randomBytes(32).toString('hex')],
      ['empty', ''],
      ['text', 'correct horse battery staple'],
    ] as const) {
      const path = join(dir, `${name}.key`);
      writeFileSync(path, text, { mode: 0o600 });
      await expect(readMasterKeyFile(path), name).rejects.toThrow(MasterKeyFileError);
    }
  });
});
