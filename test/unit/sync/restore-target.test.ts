/**
 * Issue 22, item 6: where a restore may write when the caller names a folder (`to`, contract section 9).
 * The text is read by the platform's rules (both tested here on any platform); the disk check runs on
 * real folders: a new folder, an empty one and any folder inside the synced one are taken; an existing
 * folder with files outside it, a symlink on the way, and a file are refused, and nothing is written.
 */
import { mkdir, readdir, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkRestoreTo, readRestoreTo } from '../../../main/sync/restore-target.js';
import { makeTempDir } from '../../helpers/test-server.js';

describe('readRestoreTo', () => {
  it('takes an absolute, normalized path, one trailing separator dropped', () => {
    expect(readRestoreTo('/home/me/restored', 'linux')).toBe('/home/me/restored');
    expect(readRestoreTo('/home/me/restored/', 'darwin')).toBe('/home/me/restored');
    expect(readRestoreTo('/', 'linux')).toBe('/');
    expect(readRestoreTo('/home/me/a b/…', 'linux')).toBe('/home/me/a b/…');
    // A colon or a backslash is an ordinary character of a name on Linux and macOS.
    expect(readRestoreTo('/home/me/a:b\\c', 'linux')).toBe('/home/me/a:b\\c');
  });

  it('refuses what is not a path, a relative path, and every . , .. or empty segment, naming to', () => {
    // Its shape (text, given) is the request schema's: test/unit/http/sync-input.test.ts.
    const cases: Array<[string, RegExp]> = [
      ['', /^to must be the absolute path of a folder$/],
      ['/tmp/a\0b', /no NUL/],
      [`/${'a'.repeat(4096)}`, /at most 4096 characters/],
      ['restored', /^to must be an absolute path .*not "restored"$/],
      ['./restored', /^to must be an absolute path/],
      ['../etc', /^to must be an absolute path/],
      ['~/restored', /^to must be an absolute path/],
      ['/tmp/../etc', /^to must be a normalized path, without empty, "\." or "\.\." segments: "\/tmp\/\.\.\/etc"$/],
      ['/tmp/..', /normalized/],
      ['/tmp/./x', /normalized/],
      ['/tmp/.', /normalized/],
      ['/tmp//x', /normalized/],
      ['//tmp/x', /normalized/],
      ['/tmp/x//', /normalized/],
    ];
    for (const [value, message] of cases) expect(() => readRestoreTo(value, 'linux'), value).toThrow(message);
  });

  it('on Windows: a drive or a share, either slash, and names Windows can hold', () => {
    expect(readRestoreTo('C:\\Users\\me\\restored', 'win32')).toBe('C:\\Users\\me\\restored');
    expect(readRestoreTo('C:/Users/me/restored/', 'win32')).toBe('C:\\Users\\me\\restored');
    expect(readRestoreTo('D:\\', 'win32')).toBe('D:\\');
    expect(readRestoreTo('\\\\server\\share\\restored', 'win32')).toBe('\\\\server\\share\\restored');
    const cases: Array<[string, RegExp]> = [
      ['restored', /absolute/],
      ['C:restored', /absolute/],
      ['\\restored', /absolute/],
      ['/restored', /absolute/],
      ['C:\\Users\\..\\Windows', /normalized/],
      ['C:\\Users\\.\\me', /normalized/],
      ['C:/Users/../Windows', /normalized/],
      ['C:\\Users\\\\me', /normalized/],
      ['C:\\Users\\me\\CON', /^to: "CON" is the reserved device name CON on Windows$/],
      ['C:\\Users\\me\\nul.txt', /reserved device name NUL/],
      ['C:\\Users\\me\\a:b', /^to: "a:b" holds ":"/],
      ['C:\\Users\\me\\x.', /ends with a dot or a space/],
    ];
    for (const [value, message] of cases) expect(() => readRestoreTo(value, 'win32'), value).toThrow(message);
  });
});

describe('checkRestoreTo', () => {
  let dir: string;
  let synced: string;
  beforeEach(async () => {
    // The real path: a temporary folder may sit below a symlink (/tmp, /var on macOS).
    dir = await realpath(await makeTempDir('pinfold-restore-target-'));
    synced = path.join(dir, 'synced');
    await mkdir(path.join(synced, 'docs'), { recursive: true });
    await writeFile(path.join(synced, 'docs', 'kept.txt'), 'kept');
  });
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  it('takes a new folder (nested too), an empty folder, and any folder inside the synced one', async () => {
    await mkdir(path.join(dir, 'empty'));
    for (const to of [
      path.join(dir, 'new'),
      path.join(dir, 'new', 'deeper'),
      path.join(dir, 'empty'),
      synced,
      path.join(synced, 'docs'),
      path.join(synced, 'docs', 'new'),
    ]) {
      await expect(checkRestoreTo(to, synced), to).resolves.toBeUndefined();
    }
    // It only looks.
    expect((await readdir(dir)).sort()).toEqual(['empty', 'synced']);
  });

  it('refuses an existing folder with files outside the synced folder, naming to', async () => {
    const foreign = path.join(dir, 'foreign');
    await mkdir(foreign);
    await writeFile(path.join(foreign, 'keep.txt'), 'theirs');
    await expect(checkRestoreTo(foreign, synced)).rejects.toThrow(
      `to: ${foreign} is a folder that already holds files, outside the synced folder; a restore writes only into the synced folder, a new folder or an empty one`,
    );
    // A folder beside the synced one whose name starts the same is not inside it.
    const beside = `${synced}-old`;
    await mkdir(beside);
    await writeFile(path.join(beside, 'x'), 'x');
    await expect(checkRestoreTo(beside, synced)).rejects.toThrow(/already holds files/);
  });

  it('refuses a symlink on the way, to itself or a folder above it, even inside the synced folder or leading to an empty one', async () => {
    await mkdir(path.join(dir, 'empty'));
    await symlink(path.join(dir, 'empty'), path.join(dir, 'link'));
    await symlink(path.join(dir, 'empty'), path.join(synced, 'inside-link'));
    for (const [to, link] of [
      [path.join(dir, 'link'), path.join(dir, 'link')],
      [path.join(dir, 'link', 'new'), path.join(dir, 'link')],
      [path.join(synced, 'inside-link', 'new'), path.join(synced, 'inside-link')],
    ] as const) {
      await expect(checkRestoreTo(to, synced), to).rejects.toThrow(
        `to: ${link} is a symbolic link (to ${path.join(dir, 'empty')}); a restore goes through no link: name the folder itself`,
      );
    }
    // A dangling link is a link too.
    await symlink(path.join(dir, 'nowhere'), path.join(dir, 'dangling'));
    await expect(checkRestoreTo(path.join(dir, 'dangling', 'new'), synced)).rejects.toThrow(`to: ${path.join(dir, 'dangling')} is a symbolic link; a restore`);
  });

  it('refuses a file, as to or on the way', async () => {
    const file = path.join(dir, 'file.txt');
    await writeFile(file, 'a file');
    await expect(checkRestoreTo(file, synced)).rejects.toThrow(`to: ${file} is a file, not a folder`);
    await expect(checkRestoreTo(path.join(file, 'below'), synced)).rejects.toThrow(`to: ${file} is a file, not a folder`);
    await expect(checkRestoreTo(path.join(synced, 'docs', 'kept.txt'), synced)).rejects.toThrow(/kept\.txt is a file, not a folder/);
  });
});
