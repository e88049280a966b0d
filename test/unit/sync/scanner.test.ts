import { execFileSync } from 'node:child_process';
import { mkdir, rename, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, it, expect } from 'vitest';
import type { SyncEntry } from '../../../main/store/repositories/sync.js';
import { coalesce } from '../../../main/sync/coalescer.js';
import { createIgnoreRules } from '../../../main/sync/ignore-rules.js';
import { reconcileBatch } from '../../../main/sync/reconciler.js';
import { checkFolderRoot, detectCaseInsensitive, scanFolder } from '../../../main/sync/scanner.js';
import { createFakeDomains, createSyncTestEnv, type SyncTestEnv } from '../../helpers/sync-fixtures.js';
import { SQLITE_QUERIES } from '../../../main/store/db/queries.js';

const { listSyncEntries } = SQLITE_QUERIES.sync;

describe('scanFolder', () => {
  let env: SyncTestEnv;
  const file = (rel: string): string => path.join(env.folder, ...rel.split('/'));
  const put = async (rel: string, text: string): Promise<void> => {
    await mkdir(path.dirname(file(rel)), { recursive: true });
    await writeFile(file(rel), text);
  };
  const stored = (): Map<string, SyncEntry> => new Map(listSyncEntries(env.db, env.folderId).map((e) => [e.pathKey, e]));
  const syncAll = async (): Promise<void> => {
    const scan = await scanFolder({ root: env.folder, rules: createIgnoreRules(), entries: stored() });
    await reconcileBatch(createFakeDomains(env.db), env.folderId, coalesce(scan.events));
  };

  beforeEach(async () => {
    env = await createSyncTestEnv();
  });
  afterEach(async () => {
    await env.cleanup();
  });

  it('reports everything as added against an empty state, with stats', async () => {
    await put('a.txt', 'abc');
    await put('d/e/f.txt', 'f');
    const scan = await scanFolder({ root: env.folder, rules: createIgnoreRules(), entries: new Map() });
    expect(scan.events.map((e) => `${e.kind}:${e.path}`).sort()).toEqual(['add:a.txt', 'add:d/e/f.txt', 'addDir:d', 'addDir:d/e']);
    expect(scan.events.find((e) => e.path === 'a.txt')).toMatchObject({ size: 3 });
    expect(scan).toMatchObject({ files: 2, bytes: 4, unreadable: [] });
  });

  it('compares by size and mtime: added, changed and removed only', async () => {
    await put('same.txt', 'same');
    await put('grow.txt', 'x');
    await put('touch.txt', 'same size');
    await put('old/x', 'x');
    await syncAll();
    await put('grow.txt', 'xx');
    await utimes(file('touch.txt'), new Date(2001, 1, 1), new Date(2001, 1, 1));
    await put('new.txt', 'n');
    await rm(file('old'), { recursive: true });
    const scan = await scanFolder({ root: env.folder, rules: createIgnoreRules(), entries: stored() });
    expect(coalesce(scan.events)).toEqual([
      { type: 'remove', kind: 'dir', path: 'old' },
      expect.objectContaining({ type: 'change', path: 'grow.txt', size: 2 }),
      expect.objectContaining({ type: 'add', path: 'new.txt' }),
      expect.objectContaining({ type: 'change', path: 'touch.txt' }),
    ]);
  });

  it('pairs a rename made while stopped into a move through the stored inode', async () => {
    await put('a/report.pdf', 'pdf bytes');
    await syncAll();
    await mkdir(file('b'));
    await rename(file('a/report.pdf'), file('b/report.pdf'));
    const scan = await scanFolder({ root: env.folder, rules: createIgnoreRules(), entries: stored() });
    expect(coalesce(scan.events)).toContainEqual(expect.objectContaining({ type: 'move', from: 'a/report.pdf', to: 'b/report.pdf' }));
  });

  it('applies junk, add-time patterns and .pinfoldignore files; newly ignored files count as removed', async () => {
    await put('keep.txt', 'k');
    await put('cache/big.bin', 'b');
    await put('.DS_Store', 'j');
    await put('sub/x.log', 'l');
    await syncAll();
    expect(listSyncEntries(env.db, env.folderId).map((e) => e.path)).not.toContain('.DS_Store');
    await put('sub/.pinfoldignore', '*.log\n');
    const rules = createIgnoreRules({ patterns: ['cache/'] });
    const scan = await scanFolder({ root: env.folder, rules, entries: stored() });
    expect(coalesce(scan.events).map((c) => `${c.type}:${c.type === 'move' ? c.to : c.path}`)).toEqual([
      'remove:cache',
      'remove:sub/x.log',
      'add:sub/.pinfoldignore',
    ]);
  });

  it('limits a rescan to a subtree', async () => {
    await put('a/1', '1');
    await put('b/2', '2');
    await syncAll();
    await rm(file('a/1'));
    await rm(file('b/2'));
    const scan = await scanFolder({ root: env.folder, rules: createIgnoreRules(), entries: stored(), subtree: 'b' });
    expect(scan.events.map((e) => `${e.kind}:${e.path}`)).toEqual(['unlink:b/2']);
  });

  it('skips symlinks, reports non-regular files, and sees a folder replaced by a file', async () => {
    await put('real.txt', 'r');
    await symlink('/etc', file('etc-link'));
    await symlink(file('real.txt'), file('link.txt'));
    execFileSync('mkfifo', [file('pipe')]);
    const scan = await scanFolder({ root: env.folder, rules: createIgnoreRules(), entries: new Map() });
    expect(scan.events.map((e) => e.path)).toEqual(['real.txt']);
    expect(scan.unreadable).toEqual([{ path: 'pipe', reason: 'not a regular file' }]);

    await rm(file('pipe'));
    await put('locked/inner.txt', 'i');
    await syncAll();
    await rm(file('locked'), { recursive: true });
    await writeFile(file('locked'), 'now a file, was a folder');
    const kindChange = await scanFolder({ root: env.folder, rules: createIgnoreRules(), entries: stored() });
    expect(coalesce(kindChange.events).map((c) => `${c.type}:${c.type === 'move' ? c.to : c.path}`)).toEqual(['remove:locked', 'add:locked']);
  });

  it('stops when aborted', async () => {
    await put('a', 'a');
    const controller = new AbortController();
    controller.abort();
    await expect(scanFolder({ root: env.folder, rules: createIgnoreRules(), entries: new Map(), signal: controller.signal })).rejects.toThrow();
  });
});

describe('checkFolderRoot (unmounted-drive rule)', () => {
  let env: SyncTestEnv;
  beforeEach(async () => {
    env = await createSyncTestEnv();
  });
  afterEach(async () => {
    await env.cleanup();
  });

  it('accepts the folder on its device and records the device id', async () => {
    const first = await checkFolderRoot(env.folder, '');
    expect(first.ok).toBe(true);
    const deviceId = first.ok ? first.deviceId : '';
    expect(deviceId).toMatch(/^\d+$/);
    expect(await checkFolderRoot(env.folder, deviceId)).toEqual({ ok: true, deviceId });
  });

  it('refuses a folder that is gone, is a file, or sits on another device', async () => {
    const gone = await checkFolderRoot(path.join(env.base, 'missing'), '');
    expect(gone).toEqual({ ok: false, reason: expect.stringMatching(/not found/) });
    await writeFile(path.join(env.base, 'plain'), 'x');
    expect(await checkFolderRoot(path.join(env.base, 'plain'), '')).toEqual({ ok: false, reason: 'path is no longer a folder' });
    const moved = await checkFolderRoot(env.folder, '999999999');
    expect(moved).toEqual({ ok: false, reason: expect.stringMatching(/different device/) });
  });
});

describe('detectCaseInsensitive', () => {
  it('answers for the temp file system (case-sensitive on Linux)', async () => {
    const env = await createSyncTestEnv();
    try {
      expect(await detectCaseInsensitive(env.folder)).toBe(process.platform === 'linux' ? false : await detectCaseInsensitive(env.folder));
    } finally {
      await env.cleanup();
    }
  });
});
