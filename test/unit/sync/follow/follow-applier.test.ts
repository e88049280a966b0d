import { lstat, mkdir, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { folderTree, versionRecord } from '../../../helpers/folder-tree.js';
import { makeTempDir } from '../../../helpers/test-server.js';
import { createFollowEnv, type FollowEnv } from './follow-kit.js';

const BESIDE = (name: string, ext = '.txt'): RegExp =>
  new RegExp(`^${name} \\(from peer\\.example-8080, \\d{4}-\\d{2}-\\d{2} \\d{4}\\)${ext.replace('.', '\\.')}$`);

describe('applyFollowedVersion', () => {
  let follow: FollowEnv;

  beforeEach(async () => {
    follow = await createFollowEnv();
  });
  afterEach(async () => follow.cleanup());

  it('writes the first copy whole: nested folders, an empty one, byte for byte, and records it as the folder state', async () => {
    const big = new Uint8Array(3 * 1024 * 1024).map((_, i) => (i * 7) % 251);
    const v1 = await follow.version({ 'a.txt': 'alpha', 'docs/b.md': 'bravo', 'docs/deep/c.bin': big, 'empty/': '' });
    const result = await follow.apply(v1);

    expect(folderTree(follow.folder)).toEqual(await versionRecord(follow.blocks, v1));
    expect(result).toMatchObject({ root: v1.toString(), written: 3, removed: 0, localChanges: [] });
    const row = await follow.store.sync.getSyncFolder(follow.folderId);
    expect(row).toMatchObject({ rootCid: v1.toString(), files: 3, bytes: 5 + 5 + big.length });
    expect(await follow.store.sync.getSyncJournal(follow.folderId)).toBeUndefined();
    expect(follow.pins).toEqual([`${v1.toString()}<-`]);
    // What the applier wrote is what the manifest says, stat and all.
    const entry = await follow.store.sync.getSyncEntry(follow.folderId, 'docs/deep/c.bin');
    const onDisk = await stat(path.join(follow.folder, 'docs/deep/c.bin'));
    expect(entry).toMatchObject({ kind: 'file', size: big.length, mtimeMs: onDisk.mtimeMs, ino: onDisk.ino });
    expect((await follow.store.sync.getSyncEntry(follow.folderId, 'empty'))?.kind).toBe('dir');
    const versions = await follow.store.sync.syncVersions(follow.folderId, 10, 0);
    expect(versions.map((version) => [version.root, version.added])).toEqual([[v1.toString(), 3]]);
  });

  it('brings edits, renames, deletes and nested folders of the next version, and trashes what it removed', async () => {
    const v1 = await follow.version({
      'a.txt': 'alpha',
      'rename-me.txt': 'moving',
      'gone.txt': 'to be removed',
      'old/x.txt': 'x',
      'old/deeper/y.txt': 'y',
      'keep/z.txt': 'zulu',
    });
    await follow.apply(v1);
    const v2 = await follow.version({
      'a.txt': 'alpha, edited',
      'moved/renamed.txt': 'moving',
      'keep/z.txt': 'zulu',
      'keep/new/n.txt': 'new and nested',
      'empty/': '',
    });
    const result = await follow.apply(v2);

    expect(folderTree(follow.folder)).toEqual(await versionRecord(follow.blocks, v2));
    expect(result.localChanges).toEqual([]);
    expect(result.written).toBe(3);
    // Two files and one folder (whole, with what it held).
    expect(result.removed).toBe(4);
    const trashed = await follow.trashed();
    expect(Object.keys(trashed)).toEqual(['gone.txt', 'old', 'rename-me.txt']);
    expect(trashed['old']).toContain(`Path=${path.join(follow.folder, 'old').split(path.sep).map(encodeURIComponent).join('/')}`);
    expect(await readFile(path.join(follow.dataHome, 'Trash', 'files', 'old', 'deeper', 'y.txt'), 'utf8')).toBe('y');
    expect((await follow.store.sync.listSyncEntries(follow.folderId)).map((entry) => entry.path).sort()).toEqual([
      'a.txt',
      'empty',
      'keep',
      'keep/new',
      'keep/new/n.txt',
      'keep/z.txt',
      'moved',
      'moved/renamed.txt',
    ]);
    expect(follow.pins).toEqual([`${v1.toString()}<-`, `${v2.toString()}<-${v1.toString()}`]);
    const versions = await follow.store.sync.syncVersions(follow.folderId, 10, 0);
    expect(versions[0]).toMatchObject({ root: v2.toString(), added: 2, modified: 1, removed: 4 });
  });

  it('keeps the UnixFS mtimes of files and folders', async () => {
    const v1 = await follow.version({ 'dated.txt': { content: 'old news', mtime: 1_600_000_000 }, 'plain.txt': 'no time' });
    await follow.apply(v1);
    expect((await stat(path.join(follow.folder, 'dated.txt'))).mtimeMs).toBe(1_600_000_000_000);
    expect((await stat(path.join(follow.folder, 'plain.txt'))).mtimeMs).toBeGreaterThan(1_600_000_000_000);
  });

  it('keeps a local edit, writes the incoming file beside it once, and lists it', async () => {
    const v1 = await follow.version({ 'notes.txt': 'version one', 'other.txt': 'same' });
    await follow.apply(v1);
    await writeFile(path.join(follow.folder, 'notes.txt'), 'my own edit');
    const v2 = await follow.version({ 'notes.txt': 'version two', 'other.txt': 'same' });
    const result = await follow.apply(v2);

    expect(await readFile(path.join(follow.folder, 'notes.txt'), 'utf8')).toBe('my own edit');
    const beside = (await readdir(follow.folder)).filter((name) => BESIDE('notes').test(name));
    expect(beside).toHaveLength(1);
    expect(await readFile(path.join(follow.folder, beside[0] ?? ''), 'utf8')).toBe('version two');
    expect(result.localChanges).toEqual([{ path: 'notes.txt', change: 'modified', beside: beside }]);

    // The next version leaves the file alone: the change is still listed, checked again.
    const v3 = await follow.version({ 'notes.txt': 'version two', 'other.txt': 'changed' });
    const again = await follow.apply(v3, { localChanges: ['notes.txt'] });
    expect(again.localChanges).toEqual([{ path: 'notes.txt', change: 'modified', beside }]);
    expect(await readFile(path.join(follow.folder, 'other.txt'), 'utf8')).toBe('changed');
  });

  it('keeps a local add: a file the version does not have, and one where the version brings a file', async () => {
    const v1 = await follow.version({ 'a.txt': 'alpha' });
    await follow.apply(v1);
    await writeFile(path.join(follow.folder, 'mine.txt'), 'only here');
    await writeFile(path.join(follow.folder, 'clash.txt'), 'mine first');
    const v2 = await follow.version({ 'a.txt': 'alpha', 'clash.txt': 'theirs' });
    const result = await follow.apply(v2, { scanAll: true });

    expect(await readFile(path.join(follow.folder, 'clash.txt'), 'utf8')).toBe('mine first');
    expect(await readFile(path.join(follow.folder, 'mine.txt'), 'utf8')).toBe('only here');
    expect(result.localChanges.map((change) => [change.path, change.change, change.beside.length])).toEqual([
      ['clash.txt', 'modified', 1],
      ['mine.txt', 'added', 0],
    ]);
  });

  it('writes again a locally deleted file the version changed, and lists one it did not change', async () => {
    const v1 = await follow.version({ 'changed.txt': 'one', 'unchanged.txt': 'stays' });
    await follow.apply(v1);
    await rm(path.join(follow.folder, 'changed.txt'));
    await rm(path.join(follow.folder, 'unchanged.txt'));
    const v2 = await follow.version({ 'changed.txt': 'two', 'unchanged.txt': 'stays' });
    const result = await follow.apply(v2, { scanAll: true });
    expect(await readFile(path.join(follow.folder, 'changed.txt'), 'utf8')).toBe('two');
    expect(result.localChanges).toEqual([{ path: 'unchanged.txt', change: 'deleted', beside: [] }]);
  });

  it('never removes a locally changed file the version removed, nor a folder holding a local file', async () => {
    const v1 = await follow.version({ 'edited.txt': 'one', 'dir/ours.txt': 'ours', 'keep.txt': 'k' });
    await follow.apply(v1);
    await writeFile(path.join(follow.folder, 'edited.txt'), 'changed here');
    await writeFile(path.join(follow.folder, 'dir/mine.txt'), 'added here');
    const v2 = await follow.version({ 'keep.txt': 'k' });
    const result = await follow.apply(v2);
    expect(folderTree(follow.folder)).toEqual({ dir: 'dir', 'dir/mine.txt': 'file:added here', 'edited.txt': 'file:changed here', 'keep.txt': 'file:k' });
    expect(result.localChanges.map((change) => [change.path, change.change])).toEqual([
      ['dir', 'added'],
      ['edited.txt', 'added'],
    ]);
    expect(Object.keys(await follow.trashed())).toEqual(['ours.txt']);
  });

  it('leaves ignored local files alone and unlisted, even in a folder the version removes', async () => {
    const v1 = await follow.version({ 'a.txt': 'alpha', 'dir/b.txt': 'bravo', '.pinfoldignore': 'local-only/\n*.log\n' });
    await follow.apply(v1);
    await writeFile(path.join(follow.folder, 'dir/.DS_Store'), 'junk');
    await writeFile(path.join(follow.folder, 'debug.log'), 'log');
    await mkdir(path.join(follow.folder, 'local-only'));
    await writeFile(path.join(follow.folder, 'local-only/x.txt'), 'x');
    const v2 = await follow.version({ 'a.txt': 'alpha', 'debug.log': 'their log', '.pinfoldignore': 'local-only/\n*.log\n' });
    const result = await follow.apply(v2, { scanAll: true });
    expect(result.localChanges).toEqual([]);
    expect(await readFile(path.join(follow.folder, 'debug.log'), 'utf8')).toBe('log');
    expect(await readFile(path.join(follow.folder, 'dir/.DS_Store'), 'utf8')).toBe('junk');
    expect(await readdir(path.join(follow.folder, 'dir'))).toEqual(['.DS_Store']);
    expect(Object.keys(await follow.trashed())).toEqual(['b.txt']);
  });

  it('never writes through a symlink: a link where the version has a folder or a file is a local change', async () => {
    const outside = await makeTempDir('pinfold-follow-outside-');
    try {
      await symlink(outside, path.join(follow.folder, 'sub'));
      await symlink(path.join(outside, 'target.txt'), path.join(follow.folder, 'a.txt'));
      const v1 = await follow.version({ 'a.txt': 'alpha', 'sub/b.txt': 'bravo' });
      const result = await follow.apply(v1);
      expect(await readdir(outside)).toEqual([]);
      expect((await lstat(path.join(follow.folder, 'sub'))).isSymbolicLink()).toBe(true);
      expect((await lstat(path.join(follow.folder, 'a.txt'))).isSymbolicLink()).toBe(true);
      expect(result.localChanges.map((change) => [change.path, change.change, change.beside.length])).toEqual([
        ['a.txt', 'modified', 1],
        ['sub', 'modified', 0],
      ]);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });
});
