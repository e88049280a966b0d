import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../../main/base/atomic-write.js';
import { FileSecretStore, loadOrCreateMasterKey } from '../../../main/secrets/secret-store.js';

describe('file secret store and master key', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pinfold-secrets-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('creates a 32-byte master key once, in a 0600 file, and returns the same key later', async () => {
    const store = new FileSecretStore(dir);
    expect(await store.get('master')).toBeNull();
    const first = await loadOrCreateMasterKey(store);
    expect(first.length).toBe(32);
    const path = join(dir, 'master.key');
    if (process.platform !== 'win32') expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(await readFile(path, 'utf8')).toBe(`${first.toString('base64')}\n`);
    const again = await loadOrCreateMasterKey(new FileSecretStore(dir));
    expect(again.equals(first)).toBe(true);
  });

  it('refuses a corrupt master key instead of replacing it', async () => {
    writeFileSync(join(dir, 'master.key'), Buffer.alloc(10).toString('base64'));
    await expect(loadOrCreateMasterKey(new FileSecretStore(dir))).rejects.toThrow(/corrupt/);
    expect((await readFile(join(dir, 'master.key'), 'utf8')).trim()).toBe(Buffer.alloc(10).toString('base64'));
  });

  it('refuses secret names that could escape the folder', async () => {
    const store = new FileSecretStore(dir);
    await expect(store.set('../evil', Buffer.from('x'))).rejects.toThrow(/invalid secret name/);
    await expect(store.get('a/b')).rejects.toThrow(/invalid secret name/);
  });

  it('writeFileAtomic replaces the file whole and leaves no temp file', async () => {
    const path = join(dir, 'f.json');
    await writeFileAtomic(path, 'one');
    await writeFileAtomic(path, 'two', 0o600);
    expect(await readFile(path, 'utf8')).toBe('two');
    expect(readdirSync(dir)).toEqual(['f.json']);
  });
});
