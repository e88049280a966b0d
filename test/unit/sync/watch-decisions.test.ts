import path from 'node:path';
import { describe, it, expect } from 'vitest';
import { createIgnoreRules } from '../../../main/sync/ignore-rules.js';
import {
  childPath,
  chokidarIgnores,
  ignoreFileDir,
  ignoreFileTouched,
  isWithin,
  lookStep,
  pollStep,
  relativeIn,
  reportedKind,
  seenKindOf,
  type SeenKind,
} from '../../../main/sync/watch-decisions.js';

const statsOf = (kind: 'file' | 'dir' | 'symlink' | 'fifo'): { isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean } => ({
  isFile: () => kind === 'file',
  isDirectory: () => kind === 'dir',
  isSymbolicLink: () => kind === 'symlink',
});

describe('seenKindOf', () => {
  it('names what an lstat saw, a symlink before what it points at', () => {
    expect([undefined, statsOf('file'), statsOf('dir'), statsOf('symlink'), statsOf('fifo')].map(seenKindOf)).toEqual([
      'missing',
      'file',
      'dir',
      'symlink',
      'other',
    ]);
  });
});

describe('lookStep', () => {
  it('reports a vanished name as deleted unless it was (or is now) a watched folder', () => {
    expect(lookStep('missing', false, false)).toBe('unlink');
    expect(lookStep('missing', true, false)).toBe('nothing');
    expect(lookStep('missing', false, true)).toBe('nothing');
  });

  it('deletes a file a symlink replaced only if known, forgets one a folder replaced, and refuses the rest', () => {
    const steps = (['symlink', 'dir', 'other', 'file'] as SeenKind[]).map((seen) => lookStep(seen, false, false));
    expect(steps).toEqual(['unlink-if-known', 'forget', 'not-regular', 'written']);
  });
});

describe('pollStep', () => {
  it('drops a pending file something else replaced, refuses a non-file, checks a file', () => {
    expect((['missing', 'symlink', 'dir', 'other', 'file'] as SeenKind[]).map(pollStep)).toEqual(['drop', 'drop', 'drop', 'not-regular', 'check']);
  });
});

describe('reportedKind', () => {
  it('turns an add already reported this session into a change', () => {
    expect(reportedKind('add', false)).toBe('add');
    expect(reportedKind('add', true)).toBe('change');
    expect(reportedKind('change', false)).toBe('change');
  });
});

describe('ignore files', () => {
  it('re-reads an ignore file written or deleted, not a folder of that name', () => {
    expect(ignoreFileTouched('.pinfoldignore', 'file')).toBe(true);
    expect(ignoreFileTouched('a/.pinfoldignore', 'missing')).toBe(true);
    expect(ignoreFileTouched('a/.pinfoldignore', 'dir')).toBe(false);
    expect(ignoreFileTouched('a/notes.txt', 'file')).toBe(false);
  });

  it('tells the folder an ignore file rules', () => {
    expect(ignoreFileDir('.pinfoldignore')).toBe('');
    expect(ignoreFileDir('a/b/.pinfoldignore')).toBe('a/b');
  });
});

describe('chokidarIgnores', () => {
  const rules = createIgnoreRules({ patterns: ['build/'] });

  it('watches the root and folders the rules keep, never files or what lies outside the root', () => {
    expect(chokidarIgnores(rules, undefined)).toBe(true);
    expect(chokidarIgnores(rules, '')).toBe(false);
    expect(chokidarIgnores(rules, 'src', statsOf('dir'))).toBe(false);
    expect(chokidarIgnores(rules, 'build', statsOf('dir'))).toBe(true);
    expect(chokidarIgnores(rules, 'src/a.ts', statsOf('file'))).toBe(true);
  });
});

describe('paths', () => {
  const root = path.resolve('/tmp/folder');

  it('makes absolute paths relative to the root, `/`-separated, and refuses those outside it', () => {
    expect(relativeIn(root, root)).toBe('');
    expect(relativeIn(root, path.join(root, 'a', 'b.txt'))).toBe('a/b.txt');
    expect(relativeIn(root, path.resolve('/tmp/other'))).toBeUndefined();
    expect(relativeIn(root, path.resolve('/tmp'))).toBeUndefined();
  });

  it('tells a folder and what is inside it from a sibling that shares its prefix', () => {
    expect(isWithin('a', 'a')).toBe(true);
    expect(isWithin('a', 'a/b')).toBe(true);
    expect(isWithin('a', 'ab')).toBe(false);
    expect(childPath('', 'x')).toBe('x');
    expect(childPath('a', 'x')).toBe('a/x');
  });
});
