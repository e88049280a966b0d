/**
 * renderer/pages/files/dropped-items.ts with stand-ins for the browser's file-system entries: a drop of
 * files and folders (nested, empty, more than one readEntries batch), the folder picker's relative paths,
 * and entries that cannot be read.
 */
import { describe, expect, it } from 'vitest';
import {
  sourcesFromDrop,
  sourcesFromInput,
  type DroppedEntry,
  type DroppedItem,
  type PickedFile,
  type UploadSource,
} from '../../../renderer/pages/files/dropped-items.js';

type Tree = { [name: string]: string | Tree | Error };

const fileNamed = (name: string, text: string, webkitRelativePath = ''): PickedFile => Object.assign(new File([text], name), { webkitRelativePath });

/** A FileSystemEntry stand-in for a tree; readEntries answers at most `batch` children at a time, as Chrome does (100). */
function entryOf(name: string, node: string | Tree | Error, batch = 2): DroppedEntry {
  if (typeof node === 'string' || node instanceof Error) {
    return {
      isFile: true,
      isDirectory: false,
      name,
      file: (success: (file: PickedFile) => void, failure: (error: unknown) => void) =>
        setTimeout(() => (node instanceof Error ? failure(node) : success(fileNamed(name, node)))),
    } as DroppedEntry;
  }
  return {
    isFile: false,
    isDirectory: true,
    name,
    createReader() {
      const children = Object.entries(node).map(([child, value]) => entryOf(child, value, batch));
      let at = 0;
      return {
        readEntries(success: (entries: DroppedEntry[]) => void) {
          const answer = children.slice(at, at + batch);
          at += answer.length;
          setTimeout(() => success(answer));
        },
      };
    },
  } as DroppedEntry;
}

const item = (entry: DroppedEntry | null, file: PickedFile | null = null, kind = 'file'): DroppedItem => ({
  kind,
  getAsFile: () => file,
  webkitGetAsEntry: () => entry,
});

function summary(sources: UploadSource[]) {
  return sources.map((source) =>
    source.kind === 'file'
      ? { file: source.name, size: source.file.size }
      : {
          folder: source.name,
          files: source.files,
          bytes: source.bytes,
          paths: source.entries.map((entry) => (entry.file ? entry.path : `${entry.path}/`)).sort(),
        },
  );
}

describe('sourcesFromDrop', () => {
  it('makes each loose file one upload and each folder one upload, with nested and empty folders', async () => {
    const photos = entryOf('photos', { 'a.jpg': 'aaaa', 'b.jpg': 'bb', '2024': { 'c.jpg': 'c', deeper: { 'd.txt': 'ddd' } }, empty: {}, 'e.txt': '' });
    const loose = fileNamed('notes.txt', 'hello');
    const sources = await sourcesFromDrop([item(photos), item(entryOf('notes.txt', 'hello'), loose), item(null, null, 'string')]);
    expect(summary(sources)).toEqual([
      { folder: 'photos', files: 5, bytes: 10, paths: ['2024/c.jpg', '2024/deeper/d.txt', 'a.jpg', 'b.jpg', 'e.txt', 'empty/'] },
      { file: 'notes.txt', size: 5 },
    ]);
  });

  it('reads a folder of many files through every readEntries batch', async () => {
    const many: Tree = Object.fromEntries(Array.from({ length: 250 }, (_, i) => [`f${i}.txt`, String(i)]));
    const [folder] = await sourcesFromDrop([item(entryOf('many', many, 100))]);
    expect(folder?.kind === 'folder' ? folder.entries.length : 0).toBe(250);
  });

  it('takes a file without an entry (a synthetic DataTransfer) from getAsFile, and an empty folder as an empty upload', async () => {
    const sources = await sourcesFromDrop([item(null, fileNamed('x.bin', 'xyz')), item(entryOf('nothing', {}))]);
    expect(summary(sources)).toEqual([
      { file: 'x.bin', size: 3 },
      { folder: 'nothing', files: 0, bytes: 0, paths: [] },
    ]);
  });

  it('fails with the path when a file or folder cannot be read', async () => {
    await expect(sourcesFromDrop([item(entryOf('site', { css: { 'a.css': new Error('NotReadableError') } }))])).rejects.toThrow(
      'site/css/a.css could not be read (NotReadableError).',
    );
    const unreadable = {
      isFile: false,
      isDirectory: true,
      name: 'locked',
      createReader: () => ({ readEntries: (_ok: unknown, fail: (error: unknown) => void) => fail({ name: 'SecurityError' }) }),
    };
    await expect(sourcesFromDrop([item(unreadable as DroppedEntry)])).rejects.toThrow('The folder locked could not be read (SecurityError).');
  });
});

describe('sourcesFromInput', () => {
  it('groups a folder picker’s files by their folder, and keeps loose files apart', () => {
    const sources = sourcesFromInput([
      fileNamed('a.txt', 'aa', 'site/a.txt'),
      fileNamed('b.css', 'b', 'site/css/b.css'),
      fileNamed('c.txt', 'ccc', 'other/c.txt'),
      fileNamed('loose.txt', 'l'),
    ]);
    expect(summary(sources)).toEqual([
      { folder: 'site', files: 2, bytes: 3, paths: ['a.txt', 'css/b.css'] },
      { folder: 'other', files: 1, bytes: 3, paths: ['c.txt'] },
      { file: 'loose.txt', size: 1 },
    ]);
    expect(sourcesFromInput([])).toEqual([]);
  });
});
