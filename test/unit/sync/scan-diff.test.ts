import { describe, it, expect } from 'vitest';
import type { SyncEntry } from '../../../main/store/repositories/sync.js';
import { foundFileEvents, foundFolderEvents, missingEvents } from '../../../main/sync/scan-diff.js';

const file = (path: string, size = 3, mtimeMs = 1_000, ino = 7): SyncEntry => ({
  pathKey: path.toLowerCase(),
  path,
  kind: 'file',
  size,
  mtimeMs,
  ino,
  cid: 'bafyfile',
});
const dir = (path: string): SyncEntry => ({ pathKey: path.toLowerCase(), path, kind: 'dir', size: 0, mtimeMs: 0, ino: 0, cid: 'bafydir' });
const found = { size: 3, mtimeMs: 1_000, ino: 9 };

describe('foundFileEvents', () => {
  it('adds a file nothing is stored for, and says nothing of an unchanged one', () => {
    expect(foundFileEvents(undefined, 'a.txt', found)).toEqual([{ kind: 'add', path: 'a.txt', at: 0, ...found }]);
    expect(foundFileEvents(file('a.txt'), 'a.txt', found)).toEqual([]);
  });

  it('reports a change of size or mtime as a change of the same path', () => {
    expect(foundFileEvents(file('a.txt', 4), 'a.txt', found)).toEqual([{ kind: 'change', path: 'a.txt', at: 0, ...found }]);
    expect(foundFileEvents(file('a.txt', 3, 2_000), 'a.txt', found)).toEqual([{ kind: 'change', path: 'a.txt', at: 0, ...found }]);
  });

  it('turns a respelled file into the stored spelling deleted (with its identity) and the new one added', () => {
    expect(foundFileEvents(file('A.txt'), 'a.txt', found)).toEqual([
      { kind: 'unlink', path: 'A.txt', at: 0, size: 3, mtimeMs: 1_000, ino: 7 },
      { kind: 'add', path: 'a.txt', at: 0, ...found },
    ]);
  });

  it('replaces a stored folder by the file in its place', () => {
    expect(foundFileEvents(dir('a'), 'a', found)).toEqual([
      { kind: 'unlinkDir', path: 'a', at: 0 },
      { kind: 'add', path: 'a', at: 0, ...found },
    ]);
  });
});

describe('foundFolderEvents', () => {
  it('adds a new folder and says nothing of a stored one', () => {
    expect(foundFolderEvents(undefined, 'd')).toEqual([{ kind: 'addDir', path: 'd', at: 0 }]);
    expect(foundFolderEvents(dir('d'), 'd')).toEqual([]);
  });

  it('replaces a stored file by the folder in its place, the file keeping its identity', () => {
    expect(foundFolderEvents(file('d'), 'd')).toEqual([
      { kind: 'unlink', path: 'd', at: 0, size: 3, mtimeMs: 1_000, ino: 7 },
      { kind: 'addDir', path: 'd', at: 0 },
    ]);
  });

  it('deletes a respelled entry under its stored spelling, then adds the folder', () => {
    expect(foundFolderEvents(dir('D'), 'd')).toEqual([
      { kind: 'unlinkDir', path: 'D', at: 0 },
      { kind: 'addDir', path: 'd', at: 0 },
    ]);
    expect(foundFolderEvents(file('D'), 'd')).toEqual([
      { kind: 'unlink', path: 'D', at: 0 },
      { kind: 'addDir', path: 'd', at: 0 },
    ]);
  });
});

describe('missingEvents', () => {
  const entries = new Map([file('a.txt'), dir('d'), file('d/b.txt'), dir('u'), file('u/c.txt'), file('s/e.txt')].map((e) => [e.pathKey, e]));

  it('deletes every stored entry not seen, files with their identity', () => {
    const events = missingEvents(entries, { seen: new Set(['d', 'u', 'u/c.txt', 's/e.txt']), subtreeKey: '', unknownBelow: [] });
    expect(events).toEqual([
      { kind: 'unlink', path: 'a.txt', at: 0, size: 3, mtimeMs: 1_000, ino: 7 },
      { kind: 'unlink', path: 'd/b.txt', at: 0, size: 3, mtimeMs: 1_000, ino: 7 },
    ]);
  });

  it('judges only the scanned subtree, and nothing below a folder that could not be read', () => {
    expect(missingEvents(entries, { seen: new Set(), subtreeKey: 'd', unknownBelow: [] }).map((e) => e.path)).toEqual(['d/b.txt']);
    // The unreadable folder itself is judged like any entry (its parent's walk sees it); what is below it is not.
    expect(missingEvents(entries, { seen: new Set(['u']), subtreeKey: '', unknownBelow: ['u', 's'] }).map((e) => e.path)).toEqual(['a.txt', 'd', 'd/b.txt']);
    expect(missingEvents(entries, { seen: new Set(), subtreeKey: '', unknownBelow: [''] })).toEqual([]);
  });
});
