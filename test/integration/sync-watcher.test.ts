import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { appendFile, chmod, mkdir, mkdtemp, rename, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, it, expect } from 'vitest';
import type { RawEvent } from '../../main/sync/coalescer.js';
import { createIgnoreRules, type IgnoreRules } from '../../main/sync/ignore-rules.js';
import type { Unreadable } from '../../main/sync/scanner.js';
import { startWatcher, type SyncWatcher, type WatcherInit } from '../../main/sync/watcher.js';
import { until } from '../helpers/until.js';

describe('startWatcher', () => {
  let base = '';
  let root = '';
  let events: RawEvent[] = [];
  let unreadable: Unreadable[] = [];
  let ignoreChanges: string[] = [];
  let rules: IgnoreRules;
  let watcher: SyncWatcher | undefined;

  const start = async (extra: Partial<WatcherInit> = {}): Promise<SyncWatcher> => {
    watcher = await startWatcher({
      root,
      rules,
      stabilityMs: 60,
      stabilityPollMs: 20,
      onEvent: (e) => events.push(e),
      onUnreadable: (u) => unreadable.push(u),
      onIgnoreFileChanged: (dir) => ignoreChanges.push(dir),
      ...extra,
    });
    return watcher;
  };
  const seen = (kind: RawEvent['kind'], p: string): boolean => events.some((e) => e.kind === kind && e.path === p);

  beforeEach(async () => {
    base = await mkdtemp(path.join(os.tmpdir(), 'pinfold-watch-'));
    root = path.join(base, 'folder');
    await mkdir(root);
    events = [];
    unreadable = [];
    ignoreChanges = [];
    rules = createIgnoreRules();
  });
  afterEach(async () => {
    await watcher?.close();
    watcher = undefined;
    await rm(base, { recursive: true, force: true });
  });

  it('does not poll and does not report what existed before it started', async () => {
    await writeFile(path.join(root, 'old.txt'), 'old');
    const w = await start();
    expect(w.usingPolling).toBe(false);
    await writeFile(path.join(root, 'sentinel'), 's');
    await until('sentinel', () => seen('add', 'sentinel') || undefined);
    expect(events.some((e) => e.path === 'old.txt')).toBe(false);
  });

  it('reports add, change, unlink, addDir and unlinkDir with relative paths and stats', async () => {
    await start();
    await mkdir(path.join(root, 'sub'));
    await writeFile(path.join(root, 'sub', 'a.txt'), 'hello');
    await until('add', () => seen('add', 'sub/a.txt') || undefined);
    expect(seen('addDir', 'sub')).toBe(true);
    const added = events.find((e) => e.path === 'sub/a.txt');
    expect(added?.size).toBe(5);
    expect(typeof added?.ino).toBe('number');
    expect(typeof added?.mtimeMs).toBe('number');

    await writeFile(path.join(root, 'sub', 'a.txt'), 'hello, world');
    await until('change', () => seen('change', 'sub/a.txt') || undefined);
    expect(events.find((e) => e.kind === 'change')?.size).toBe(12);

    await rm(path.join(root, 'sub'), { recursive: true });
    await until('unlinkDir', () => seen('unlinkDir', 'sub') || undefined);
    await until('unlink', () => seen('unlink', 'sub/a.txt') || undefined);
    // The unlink carries the identity last seen, so the coalescer can pair a move.
    expect(events.find((e) => e.kind === 'unlink')).toMatchObject({ size: 12, ino: added?.ino });
  });

  it('carries the stored identity on an unlink of a file it never saw being written', async () => {
    await writeFile(path.join(root, 'stored.bin'), 'x');
    await start({ lookup: async (rel) => (rel === 'stored.bin' ? { size: 1, ino: 42, mtimeMs: 7 } : undefined) });
    await rename(path.join(root, 'stored.bin'), path.join(root, 'moved.bin'));
    await until('rename', () => (seen('unlink', 'stored.bin') && seen('add', 'moved.bin')) || undefined);
    expect(events.find((e) => e.kind === 'unlink')).toMatchObject({ size: 1, ino: 42, mtimeMs: 7 });
  });

  it('applies default junk and add-time patterns on every event', async () => {
    rules = createIgnoreRules({ patterns: ['build/'] });
    await start();
    await writeFile(path.join(root, '.DS_Store'), 'junk');
    await writeFile(path.join(root, 'movie.part'), 'junk');
    await mkdir(path.join(root, 'build'));
    await writeFile(path.join(root, 'build', 'out.o'), 'junk');
    await writeFile(path.join(root, 'sentinel'), 's');
    await until('sentinel', () => seen('add', 'sentinel') || undefined);
    await rm(path.join(root, 'movie.part'));
    await rm(path.join(root, 'sentinel'));
    await until('sentinel unlink', () => seen('unlink', 'sentinel') || undefined);
    expect(events.map((e) => e.path).sort()).toEqual(['sentinel', 'sentinel']);
  });

  it('re-reads a .pinfoldignore when it changes and reports the folder for a rescan', async () => {
    await mkdir(path.join(root, 'logs'));
    await start();
    await writeFile(path.join(root, 'logs', '.pinfoldignore'), '*.log\n');
    // The file may be seen (and reported) first while still empty; its written content follows.
    await until('ignore change', () => (ignoreChanges.includes('logs') && rules.isIgnored('logs/a.log', false)) || undefined);
    await writeFile(path.join(root, 'logs', 'a.log'), 'x');
    await writeFile(path.join(root, 'logs', 'a.txt'), 'x');
    await until('a.txt', () => seen('add', 'logs/a.txt') || undefined);
    expect(seen('add', 'logs/a.log')).toBe(false);
    // The ignore file is content like any other.
    expect(seen('add', 'logs/.pinfoldignore')).toBe(true);

    ignoreChanges = [];
    await rm(path.join(root, 'logs', '.pinfoldignore'));
    await until('ignore removal', () => ignoreChanges.includes('logs') || undefined);
    expect(rules.isIgnored('logs/a.log', false)).toBe(false);
    await appendFile(path.join(root, 'logs', 'a.log'), 'more');
    await until('a.log now watched', () => events.some((e) => e.path === 'logs/a.log') || undefined);
  });

  it('holds a file being written until its size and mtime stay still, then reports it once', async () => {
    const w = await start({ stabilityMs: 1_500 });
    const file = path.join(root, 'big.bin');
    const chunk = Buffer.alloc(64 * 1024, 1);
    await writeFile(file, chunk);
    await until('pending write', () => w.pendingWrites === 1 || undefined);
    for (let i = 0; i < 5; i++) await appendFile(file, chunk);
    expect(events.filter((e) => e.path === 'big.bin')).toEqual([]);
    await until('stable add', () => seen('add', 'big.bin') || undefined);
    const reports = events.filter((e) => e.path === 'big.bin');
    expect(reports).toHaveLength(1);
    expect(reports[0]?.size).toBe(6 * chunk.length);
    expect(w.pendingWrites).toBe(0);
  });

  it('does not follow symlinks out of the folder, nor sync them', async () => {
    const outside = path.join(base, 'outside');
    await mkdir(outside);
    await symlink(outside, path.join(root, 'link-dir'));
    await writeFile(path.join(outside, 'secret'), 'x');
    await start();
    await symlink(path.join(outside, 'secret'), path.join(root, 'link-file'));
    await writeFile(path.join(outside, 'secret2'), 'y');
    await writeFile(path.join(root, 'sentinel'), 's');
    await until('sentinel', () => seen('add', 'sentinel') || undefined);
    expect(events.map((e) => e.path)).toEqual(['sentinel']);
  });

  it('reports entries it cannot read and keeps going', async () => {
    await start();
    execFileSync('mkfifo', [path.join(root, 'pipe')]);
    const locked = path.join(root, 'locked.txt');
    await writeFile(locked, 'x');
    await chmod(locked, 0o000);
    await writeFile(path.join(root, 'fine.txt'), 'ok');
    await until('fine', () => seen('add', 'fine.txt') || undefined);
    await until('fifo report', () => unreadable.some((u) => u.path === 'pipe') || undefined);
    expect(unreadable.find((u) => u.path === 'pipe')?.reason).toBe('not a regular file');
    expect(seen('add', 'pipe')).toBe(false);
    // Root reads anything; for anyone else a mode-000 file is reported instead of synced.
    if (process.getuid?.() !== 0) {
      await until('locked report', () => unreadable.some((u) => u.path === 'locked.txt') || undefined);
      expect(seen('add', 'locked.txt')).toBe(false);
    } else {
      await until('root reads mode-000 files', () => seen('add', 'locked.txt') || undefined);
      expect(unreadable.map((u) => u.path)).toEqual(['pipe']);
    }
  });

  it('watches each folder once, not each file (the per-user inotify limit)', async () => {
    // Linux only: the count comes from the inotify descriptors' /proc entries (CI runs on Linux).
    const inotifyWatches = (): number =>
      readdirSync('/proc/self/fdinfo').reduce((sum, fd) => {
        try {
          return sum + (readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8').match(/^inotify wd:/gm)?.length ?? 0);
        } catch {
          return sum; // a descriptor closed meanwhile
        }
      }, 0);
    for (let d = 0; d < 3; d++) {
      await mkdir(path.join(root, `d${d}`));
      for (let f = 0; f < 50; f++) await writeFile(path.join(root, `d${d}`, `f${f}.txt`), 'x');
    }
    const before = inotifyWatches();
    await start({ lookup: async (rel) => (rel === 'd1/f7.txt' ? { size: 1, ino: 1, mtimeMs: 1 } : undefined) });
    expect(inotifyWatches() - before).toBe(4); // the folder and its three sub-folders
    await writeFile(path.join(root, 'd1', 'f7.txt'), 'changed');
    await until('change in a file never watched on its own', () => seen('change', 'd1/f7.txt') || undefined);
  });

  it('reports a folder moved in whole: every sub-folder and every file in it', async () => {
    const outside = path.join(base, 'incoming');
    await mkdir(path.join(outside, 'inner'), { recursive: true });
    await writeFile(path.join(outside, 'top.txt'), 'top');
    await writeFile(path.join(outside, 'inner', 'deep.txt'), 'deep');
    await start();
    await rename(outside, path.join(root, 'moved'));
    await until('moved-in files', () => (seen('add', 'moved/top.txt') && seen('add', 'moved/inner/deep.txt')) || undefined);
    expect(seen('addDir', 'moved')).toBe(true);
    expect(seen('addDir', 'moved/inner')).toBe(true);
    expect(events.find((e) => e.path === 'moved/inner/deep.txt')?.size).toBe(4);
  });

  it('reports a file replaced by a folder as the unlink first, then the folder and its files', async () => {
    await writeFile(path.join(root, 'thing'), 'file');
    await start({ lookup: async (rel) => (rel === 'thing' ? { size: 4, ino: 9, mtimeMs: 1 } : undefined) });
    await rm(path.join(root, 'thing'));
    await mkdir(path.join(root, 'thing'));
    await writeFile(path.join(root, 'thing', 'inside.txt'), 'in');
    await until('file inside the new folder', () => seen('add', 'thing/inside.txt') || undefined);
    const unlinkAt = events.findIndex((e) => e.kind === 'unlink' && e.path === 'thing');
    const addDirAt = events.findIndex((e) => e.kind === 'addDir' && e.path === 'thing');
    expect(unlinkAt).toBeGreaterThanOrEqual(0);
    expect(addDirAt).toBeGreaterThan(unlinkAt);
  });

  it('reports a removed folder as unlinkDir, never as an unlinked file of that name', async () => {
    await mkdir(path.join(root, 'gone'));
    await writeFile(path.join(root, 'gone', 'a.txt'), 'a');
    await start({ lookup: async (rel) => (rel === 'gone/a.txt' ? { size: 1, ino: 1, mtimeMs: 1 } : undefined) });
    await rm(path.join(root, 'gone'), { recursive: true });
    await writeFile(path.join(root, 'sentinel'), 's');
    await until('folder removal', () => (seen('unlinkDir', 'gone') && seen('add', 'sentinel')) || undefined);
    expect(seen('unlink', 'gone')).toBe(false);
  });

  it('tells when the folder itself disappears', async () => {
    let gone = 0;
    await start({ onRootGone: () => gone++ });
    await rm(root, { recursive: true });
    await until('root gone', () => gone > 0 || undefined);
    expect(events.some((e) => e.path === '')).toBe(false);
  });
});
