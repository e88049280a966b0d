import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, it, expect } from 'vitest';
import { BadInputError } from '../../../main/base/errors.js';
import { createIgnoreRules, DEFAULT_JUNK, isIgnoreFile, loadIgnoreFile, validateIgnorePatterns } from '../../../main/sync/ignore-rules.js';

describe('default junk', () => {
  const rules = createIgnoreRules();
  it.each([
    '.DS_Store',
    'photos/.DS_Store',
    'Thumbs.db',
    'a/b/desktop.ini',
    'build.tmp',
    'deep/x/video.mp4.part',
    'movie.crdownload',
    '~$report.docx',
    'docs/.~lock.budget.ods#',
  ])('ignores %s', (p) => {
    expect(rules.isIgnored(p, false)).toBe(true);
  });

  it.each(['report.docx', 'tmp', 'my.tmpl', 'part', 'x~$y', 'lock.txt', '.pinfoldignore', 'a/DS_Store'])('keeps %s', (p) => {
    expect(rules.isIgnored(p, false)).toBe(false);
  });

  it('has exactly the contract list', () => {
    expect([...DEFAULT_JUNK]).toEqual(['.DS_Store', 'Thumbs.db', 'desktop.ini', '*.tmp', '*.part', '*.crdownload', '~$*', '.~lock.*']);
  });

  it('never ignores the root and matches junk case-sensitively unless told otherwise', () => {
    expect(rules.isIgnored('', true)).toBe(false);
    expect(rules.isIgnored('THUMBS.DB', false)).toBe(false);
    expect(createIgnoreRules({ caseInsensitive: true }).isIgnored('THUMBS.DB', false)).toBe(true);
  });
});

describe('patterns given at sync/add', () => {
  it('apply gitignore semantics from the root, including folder-only patterns and negation', () => {
    const rules = createIgnoreRules({ patterns: ['node_modules/', '*.log', '!keep.log', '/top-only.txt'] });
    expect(rules.isIgnored('node_modules', true)).toBe(true);
    expect(rules.isIgnored('node_modules', false)).toBe(false);
    expect(rules.isIgnored('pkg/node_modules/x/index.js', false)).toBe(true);
    expect(rules.isIgnored('a/debug.log', false)).toBe(true);
    expect(rules.isIgnored('a/keep.log', false)).toBe(false);
    expect(rules.isIgnored('top-only.txt', false)).toBe(true);
    expect(rules.isIgnored('sub/top-only.txt', false)).toBe(false);
  });

  it('checks each pattern as a pattern and names the one at fault', () => {
    expect(validateIgnorePatterns([])).toEqual([]);
    expect(validateIgnorePatterns(['*.bak', '!keep.bak'])).toEqual(['*.bak', '!keep.bak']);
    // The list's shape (an array of at most 1000 texts) is the request schema's: test/unit/http/sync-input.test.ts.
    const bad: [string[], string][] = [
      [['ok', ''], 'ignore[1] is empty'],
      [['  '], 'ignore[0] is empty'],
      [['a\nb'], 'ignore[0] must be one pattern without line breaks or NUL'],
      [['a\rb'], 'ignore[0] must be one pattern without line breaks or NUL'],
      [['x\0'], 'ignore[0] must be one pattern without line breaks or NUL'],
      [['y'.repeat(1025)], 'ignore[0] is longer than 1024'],
    ];
    for (const [patterns, message] of bad) {
      expect(() => validateIgnorePatterns(patterns)).toThrow(BadInputError);
      expect(() => validateIgnorePatterns(patterns), message).toThrow(message);
    }
  });
});

describe('.pinfoldignore files', () => {
  it('apply to their own subtree only, with paths relative to their folder', () => {
    const rules = createIgnoreRules();
    rules.setIgnoreFile('photos', 'raw/\n*.xmp\n/cover.jpg\n');
    expect(rules.isIgnored('photos/raw', true)).toBe(true);
    expect(rules.isIgnored('photos/raw/img1.cr2', false)).toBe(true);
    expect(rules.isIgnored('photos/2024/a.xmp', false)).toBe(true);
    expect(rules.isIgnored('photos/cover.jpg', false)).toBe(true);
    expect(rules.isIgnored('photos/2024/cover.jpg', false)).toBe(false);
    expect(rules.isIgnored('music/a.xmp', false)).toBe(false);
    expect(rules.isIgnored('raw/img1.cr2', false)).toBe(false);
  });

  it('lets a deeper file re-include what a higher level ignored, but not inside an ignored folder', () => {
    const rules = createIgnoreRules({ patterns: ['*.bin'] });
    rules.setIgnoreFile('', 'cache/\n');
    rules.setIgnoreFile('firmware', '!*.bin\n');
    expect(rules.isIgnored('x.bin', false)).toBe(true);
    expect(rules.isIgnored('firmware/x.bin', false)).toBe(false);
    rules.setIgnoreFile('cache', '!*\n');
    expect(rules.isIgnored('cache/x.txt', false)).toBe(true);
    rules.setIgnoreFile('dl', '!*.part\n');
    expect(rules.isIgnored('dl/movie.part', false)).toBe(false);
  });

  it('changes take effect when the file is set again or dropped', () => {
    const rules = createIgnoreRules();
    rules.setIgnoreFile('', 'secret.txt\n');
    expect(rules.isIgnored('secret.txt', false)).toBe(true);
    rules.setIgnoreFile('', 'other.txt\n');
    expect(rules.isIgnored('secret.txt', false)).toBe(false);
    expect(rules.ignoreFileDirs()).toEqual(['']);
    rules.setIgnoreFile('', undefined);
    expect(rules.isIgnored('other.txt', false)).toBe(false);
    expect(rules.ignoreFileDirs()).toEqual([]);
  });

  it('recognizes ignore files by name at any depth', () => {
    expect(isIgnoreFile('.pinfoldignore')).toBe(true);
    expect(isIgnoreFile('a/b/.pinfoldignore')).toBe(true);
    expect(isIgnoreFile('a/x.pinfoldignore')).toBe(false);
  });

  describe('loadIgnoreFile', () => {
    let root = '';
    beforeEach(async () => {
      root = await mkdtemp(path.join(os.tmpdir(), 'pinfold-ignore-'));
    });
    afterEach(async () => {
      await rm(root, { recursive: true, force: true });
    });

    it('reads the file from disk and drops the rules when it is deleted', async () => {
      await mkdir(path.join(root, 'a'));
      await writeFile(path.join(root, 'a', '.pinfoldignore'), '*.iso\n');
      const rules = createIgnoreRules();
      expect(await loadIgnoreFile(rules, root, 'a')).toBe(true);
      expect(rules.isIgnored('a/disk.iso', false)).toBe(true);
      await rm(path.join(root, 'a', '.pinfoldignore'));
      expect(await loadIgnoreFile(rules, root, 'a')).toBe(true);
      expect(rules.isIgnored('a/disk.iso', false)).toBe(false);
    });

    it('reports an ignore file that exists but cannot be read', async () => {
      await mkdir(path.join(root, '.pinfoldignore'));
      const rules = createIgnoreRules();
      expect(await loadIgnoreFile(rules, root, '')).toBe(false);
      expect(rules.ignoreFileDirs()).toEqual([]);
    });
  });
});
