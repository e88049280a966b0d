import { chmodSync, existsSync, lstatSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPrivateFolder, privateFolderParent } from '../../../main/base/private-folder.js';

const mode = (path: string) => statSync(path).mode & 0o777;
// Modes, the runtime folder and links are POSIX matters; on Windows the folder is in the user's own temp folder.
const posix = process.platform !== 'win32';

describe('a private folder for short-lived secret files', () => {
  let runtime: string;
  beforeEach(() => {
    runtime = mkdtempSync(join(tmpdir(), 'pinfold-runtime-'));
    if (posix) chmodSync(runtime, 0o700);
  });
  afterEach(() => rmSync(runtime, { recursive: true, force: true }));

  it.runIf(posix)("sits in the user's runtime folder when it is a usable one, else in the temp folder", () => {
    expect(privateFolderParent({ XDG_RUNTIME_DIR: runtime })).toBe(runtime);
    expect(privateFolderParent({})).toBe(tmpdir());
    expect(privateFolderParent({ XDG_RUNTIME_DIR: 'relative/run' })).toBe(tmpdir());
    expect(privateFolderParent({ XDG_RUNTIME_DIR: join(runtime, 'gone') })).toBe(tmpdir());
    // Others may enter it: not trusted with a secret.
    chmodSync(runtime, 0o755);
    expect(privateFolderParent({ XDG_RUNTIME_DIR: runtime })).toBe(tmpdir());
    const file = join(runtime, 'a-file');
    writeFileSync(file, '');
    chmodSync(runtime, 0o700);
    expect(privateFolderParent({ XDG_RUNTIME_DIR: file })).toBe(tmpdir());
  });

  it('writes each file 0600 in a folder of its own, 0700, made on first use; removes a file; close() removes the folder', async () => {
    const folder = createPrivateFolder({ env: { XDG_RUNTIME_DIR: runtime }, prefix: 'pinfold-test-' });
    const first = await folder.write('one.html', 'first');
    const second = await folder.write('two.html', 'second');
    const dir = dirname(first);
    expect(dirname(dir)).toBe(posix ? runtime : tmpdir());
    expect(basename(dir)).toMatch(/^pinfold-test-.{6}$/);
    expect(dirname(second)).toBe(dir);
    if (posix) {
      expect(mode(dir)).toBe(0o700);
      expect(mode(first)).toBe(0o600);
      expect(mode(second)).toBe(0o600);
    }
    expect(readFileSync(first, 'utf8')).toBe('first');

    folder.remove(first);
    expect(existsSync(first)).toBe(false);
    folder.remove(first);
    // Only its own files: a path it did not write is left alone.
    const stranger = join(runtime, 'stranger');
    writeFileSync(stranger, 'x');
    folder.remove(stranger);
    expect(existsSync(stranger)).toBe(true);

    folder.close();
    expect(existsSync(dir)).toBe(false);
    await expect(folder.write('three.html', 'late')).rejects.toThrow('closed');
  });

  it.runIf(posix)('never writes over a file or through a link, and takes plain file names only', async () => {
    const folder = createPrivateFolder({ env: { XDG_RUNTIME_DIR: runtime }, prefix: 'pinfold-test-' });
    const first = await folder.write('page.html', 'mine');
    await expect(folder.write('page.html', 'again')).rejects.toThrow(/EEXIST/);
    const target = join(runtime, 'target');
    writeFileSync(target, 'untouched');
    symlinkSync(target, join(dirname(first), 'link.html'));
    await expect(folder.write('link.html', 'through')).rejects.toThrow(/EEXIST/);
    expect(readFileSync(target, 'utf8')).toBe('untouched');
    for (const name of ['', '.', '..', '../up.html', 'a/b.html', 'a\\b.html'])
      await expect(folder.write(name, 'x'), name).rejects.toThrow('not a plain file name');
    expect(lstatSync(join(dirname(first), 'link.html')).isSymbolicLink()).toBe(true);
    folder.close();
  });

  it('makes a new folder when its folder was removed under it (a cleaner of the temp folder)', async () => {
    const folder = createPrivateFolder({ env: { XDG_RUNTIME_DIR: runtime }, prefix: 'pinfold-test-' });
    const first = await folder.write('one.html', '1');
    rmSync(dirname(first), { recursive: true });
    const second = await folder.write('two.html', '2');
    expect(dirname(second)).not.toBe(dirname(first));
    if (posix) expect(mode(dirname(second))).toBe(0o700);
    folder.close();
    expect(existsSync(dirname(second))).toBe(false);
  });
});
