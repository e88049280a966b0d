import { execFileSync } from 'node:child_process';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, it, expect } from 'vitest';
import { NotFoundError } from '../../../main/base/errors.js';
import { KEPT_SYNC_BATCHES } from '../../../main/store/repositories/sync.js';
import { coalesce, type Change } from '../../../main/sync/coalescer.js';
import { createIgnoreRules } from '../../../main/sync/ignore-rules.js';
import { EMPTY_DIR_CID, reconcileBatch, recoverJournal, type ReconcileResult, type SyncProgress } from '../../../main/sync/reconciler.js';
import { scanFolder } from '../../../main/sync/scanner.js';
import { Crash, createFakeDomains, createSyncTestEnv, expectedRoot, type FakeDomains, type SyncTestEnv } from '../../helpers/sync-fixtures.js';
import { SQLITE_QUERIES } from '../../../main/store/db/queries.js';

const { getSyncFolder, getSyncJournal, keptVersionRoots, listSyncEntries, recentSyncBatches, releaseSyncVersions, syncVersions } = SQLITE_QUERIES.sync;

const NAME = 'k51-test-name';

describe('reconcileBatch', () => {
  let env: SyncTestEnv;
  let fake: FakeDomains;
  const file = (rel: string): string => path.join(env.folder, ...rel.split('/'));
  const put = async (rel: string, text: string): Promise<void> => {
    await mkdir(path.dirname(file(rel)), { recursive: true });
    await writeFile(file(rel), text);
  };
  const changesFromScan = async (): Promise<Change[]> => {
    const folder = getSyncFolder(env.db, env.folderId);
    const entries = new Map(listSyncEntries(env.db, env.folderId).map((e) => [e.pathKey, e]));
    const scan = await scanFolder({ root: env.folder, rules: createIgnoreRules(), entries, caseInsensitive: folder?.caseInsensitive ?? false });
    return coalesce(scan.events, { caseInsensitive: folder?.caseInsensitive ?? false });
  };
  const sync = async (): Promise<ReconcileResult> => reconcileBatch(fake, env.folderId, await changesFromScan());
  const root = (): string => getSyncFolder(env.db, env.folderId)?.rootCid ?? '';

  beforeEach(async () => {
    env = await createSyncTestEnv({ ipnsName: NAME });
    fake = createFakeDomains(env.db);
  });
  afterEach(async () => {
    await env.cleanup();
  });

  it('syncs a folder the first time: root of the whole tree, pinned and published, state stored', async () => {
    await put('a.txt', 'alpha');
    await put('docs/b.md', 'bravo');
    await put('docs/deep/c.bin', 'charlie');
    await mkdir(file('empty'));
    const result = await sync();
    expect(result.rootChanged).toBe(true);
    expect(result.root).toBe(await expectedRoot(env.folder));
    expect(root()).toBe(result.root);
    expect(fake.calls).toEqual([`movePin ${result.root} -`, `publish ${NAME} ${result.root}`]);
    expect(fake.published.get(NAME)).toBe(result.root);
    const folder = getSyncFolder(env.db, env.folderId);
    expect(folder).toMatchObject({ files: 3, bytes: 17 });
    expect(folder?.lastSyncedAt).toBeGreaterThan(0);
    expect(
      listSyncEntries(env.db, env.folderId)
        .map((e) => `${e.kind}:${e.path}`)
        .sort(),
    ).toEqual(['dir:docs', 'dir:docs/deep', 'dir:empty', 'file:a.txt', 'file:docs/b.md', 'file:docs/deep/c.bin']);
    expect(getSyncJournal(env.db, env.folderId)).toBeUndefined();
  });

  it('gives an empty folder the empty UnixFS directory as its root', async () => {
    const result = await sync();
    expect(result.root).toBe(EMPTY_DIR_CID);
    expect(fake.pinned.has(EMPTY_DIR_CID)).toBe(true);
  });

  it('follows every change kind, each result equal to an independent import of the folder', async () => {
    await put('a.txt', 'alpha');
    await put('x/one.txt', 'one');
    await put('x/y/two.txt', 'two');
    await put('gone/g1', 'g1');
    await put('gone/sub/g2', 'g2');
    await sync();
    const steps: [string, () => Promise<void>][] = [
      ['create', () => put('new.txt', 'new')],
      ['modify', () => put('a.txt', 'alpha, changed and longer')],
      ['delete', () => rm(file('new.txt'))],
      ['rename', () => rename(file('a.txt'), file('renamed.txt'))],
      ['move across folders', () => rename(file('x/y/two.txt'), file('x/two.txt'))],
      ['new nested folder', () => put('n1/n2/n3/leaf.txt', 'leaf')],
      ['delete folder with contents', () => rm(file('gone'), { recursive: true })],
      ['file becomes folder', () => rm(file('x/one.txt')).then(() => put('x/one.txt/inner', 'inner'))],
    ];
    for (const [label, step] of steps) {
      await step();
      const before = root();
      const result = await sync();
      expect(result.root, label).toBe(await expectedRoot(env.folder));
      expect(result.root, label).not.toBe(before);
      expect(fake.published.get(NAME), label).toBe(result.root);
      expect(fake.pinned, label).toEqual(new Set([result.root]));
    }
  });

  it('makes one new root for a burst of many changes', async () => {
    for (let i = 0; i < 30; i++) await put(`d${i % 3}/f${i}.txt`, `file ${i}`);
    await sync();
    fake.calls = [];
    for (let i = 0; i < 30; i += 2) await put(`d${i % 3}/f${i}.txt`, `edited ${i}`);
    await rm(file('d1'), { recursive: true });
    await put('d9/new.txt', 'new');
    const result = await sync();
    expect(result.root).toBe(await expectedRoot(env.folder));
    expect(fake.calls.filter((c) => c.startsWith('movePin'))).toHaveLength(1);
    expect(fake.calls.filter((c) => c.startsWith('publish'))).toHaveLength(1);
  });

  it('does not read unchanged files again, nor moved ones', async () => {
    for (let i = 0; i < 10; i++) await put(`f${i}`, `content ${i}`);
    await sync();
    const imports = fake.imports;
    const again = await sync();
    expect(fake.imports).toBe(imports);
    expect(again.rootChanged).toBe(false);
    await mkdir(file('moved'));
    await rename(file('f3'), file('moved/f3'));
    const moved = await sync();
    expect(fake.imports).toBe(imports);
    expect(moved.root).toBe(await expectedRoot(env.folder));
  });

  it('publishes an empty root when every file is deleted by hand', async () => {
    await put('a', 'a');
    await put('b/c', 'c');
    await sync();
    await rm(file('a'));
    await rm(file('b'), { recursive: true });
    const result = await sync();
    expect(result.root).toBe(EMPTY_DIR_CID);
    expect(fake.published.get(NAME)).toBe(EMPTY_DIR_CID);
    expect(listSyncEntries(env.db, env.folderId)).toEqual([]);
    expect(getSyncFolder(env.db, env.folderId)).toMatchObject({ files: 0, bytes: 0 });
  });

  it('reports an unreadable entry and syncs the rest', async () => {
    await put('ok.txt', 'fine');
    execFileSync('mkfifo', [file('pipe')]);
    const changes: Change[] = [
      { type: 'add', kind: 'file', path: 'ok.txt' },
      { type: 'add', kind: 'file', path: 'pipe' },
    ];
    const result = await reconcileBatch(fake, env.folderId, changes);
    expect(result.unreadable).toEqual([{ path: 'pipe', reason: 'not a regular file' }]);
    expect(result.root).toBe(await expectedRoot(env.folder));
    expect(listSyncEntries(env.db, env.folderId).map((e) => e.path)).toEqual(['ok.txt']);
  });

  it('defers a file whose size or mtime moved since the watcher saw it, keeping its old version', async () => {
    await put('doc.txt', 'v1');
    await sync();
    const before = root();
    await put('doc.txt', 'v2 still being written');
    const result = await reconcileBatch(fake, env.folderId, [{ type: 'change', kind: 'file', path: 'doc.txt', size: 3, mtimeMs: 1 }]);
    expect(result.deferred).toHaveLength(1);
    expect(result.deferred[0]).toMatchObject({ kind: 'change', path: 'doc.txt', size: 22 });
    expect(result.root).toBe(before);
    expect(result.rootChanged).toBe(false);
    expect(fake.calls.filter((c) => c.startsWith('movePin'))).toHaveLength(1);
  });

  it('treats removes of unknown paths and adds of existing folders as no-ops', async () => {
    await put('d/a', 'a');
    await sync();
    const result = await reconcileBatch(fake, env.folderId, [
      { type: 'remove', kind: 'file', path: 'never-there' },
      { type: 'add', kind: 'dir', path: 'd' },
    ]);
    expect(result.rootChanged).toBe(false);
    expect(result.root).toBe(await expectedRoot(env.folder));
  });

  it('reports progress: pending and done files and bytes, the current file, then idle', async () => {
    await put('a', 'aaaa');
    await put('b', 'bb');
    const seen: SyncProgress[] = [];
    const changes = await changesFromScan();
    await reconcileBatch(fake, env.folderId, changes, { onProgress: (p) => seen.push(p) });
    expect(seen[0]).toMatchObject({ state: 'syncing', filesDone: 0, filesPending: 2, bytesPending: 6, bytesDone: 0 });
    expect(seen.some((p) => p.currentFile === 'a')).toBe(true);
    expect(seen.at(-1)).toMatchObject({ state: 'idle', filesDone: 2, filesPending: 0, bytesDone: 6, bytesPending: 0, lastError: '' });
  });

  it('rejects an unknown folder id with NotFoundError and changes nothing', async () => {
    await expect(reconcileBatch(fake, 'nope', [])).rejects.toThrow(NotFoundError);
    expect(fake.calls).toEqual([]);
  });

  it('removes by the stored spelling on case-insensitive folders', async () => {
    await env.cleanup();
    env = await createSyncTestEnv({ ipnsName: NAME, caseInsensitive: true });
    fake = createFakeDomains(env.db);
    await put('Docs/Readme.TXT', 'r');
    await sync();
    const result = await reconcileBatch(fake, env.folderId, [{ type: 'remove', kind: 'dir', path: 'docs' }]);
    expect(result.root).toBe(EMPTY_DIR_CID);
    expect(listSyncEntries(env.db, env.folderId)).toEqual([]);
  });
});

describe('crash safety (kill -9 at every step, then restart)', () => {
  let env: SyncTestEnv;
  const put = async (rel: string, text: string): Promise<void> => {
    await mkdir(path.dirname(path.join(env.folder, rel)), { recursive: true });
    await writeFile(path.join(env.folder, rel), text);
  };
  const scanChanges = async (): Promise<Change[]> => {
    const entries = new Map(listSyncEntries(env.db, env.folderId).map((e) => [e.pathKey, e]));
    return coalesce((await scanFolder({ root: env.folder, rules: createIgnoreRules(), entries })).events);
  };

  beforeEach(async () => {
    env = await createSyncTestEnv({ ipnsName: NAME });
  });
  afterEach(async () => {
    await env.cleanup();
  });

  const points = ['importFile', 'movePin', 'afterMovePin', 'publish', 'afterPublish'] as const;
  for (const point of points) {
    it(`crash at ${point}: the published root is old or whole-new, and the restart finishes the work`, async () => {
      let fake = createFakeDomains(env.db);
      await put('a.txt', 'a');
      await put('d/b.txt', 'b');
      const first = await reconcileBatch(fake, env.folderId, await scanChanges());
      const oldRoot = first.root;

      await put('a.txt', 'a changed');
      await put('d/c.txt', 'c');
      await rm(path.join(env.folder, 'd', 'b.txt'));
      const target = await expectedRoot(env.folder);
      fake.crashAt = point;
      await expect(reconcileBatch(fake, env.folderId, await scanChanges())).rejects.toThrow(Crash);
      expect([oldRoot, target]).toContain(fake.published.get(NAME));

      // Restart: a new process over the same database, blocks, pins and names.
      env.reopen();
      fake = createFakeDomains(env.db, fake);
      const recovered = await recoverJournal(fake, env.folderId);
      expect(recovered).toBe(point === 'importFile' ? 'none' : 'completed');
      expect(fake.calls.filter((c) => c.startsWith('publish')).every((c) => c.endsWith(target))).toBe(true);

      // The start-up scan syncs whatever is still missing.
      const after = await reconcileBatch(fake, env.folderId, await scanChanges());
      expect(after.root).toBe(target);
      expect(getSyncFolder(env.db, env.folderId)?.rootCid).toBe(target);
      expect(fake.published.get(NAME)).toBe(target);
      expect(fake.pinned).toEqual(new Set([target]));
      expect(getSyncJournal(env.db, env.folderId)).toBeUndefined();
      if (point !== 'importFile') expect(after.rootChanged).toBe(false);
    });
  }

  it('drops a journal whose new root lost its blocks, keeps the old root, and a rescan redoes the batch', async () => {
    let fake = createFakeDomains(env.db);
    await put('a.txt', 'a');
    const first = await reconcileBatch(fake, env.folderId, await scanChanges());
    await put('b.txt', 'b');
    fake.crashAt = 'movePin';
    await expect(reconcileBatch(fake, env.folderId, await scanChanges())).rejects.toThrow(Crash);
    env.reopen();
    fake = createFakeDomains(env.db, fake);
    fake.blocksMissing = true;
    expect(await recoverJournal(fake, env.folderId)).toBe('discarded');
    expect(getSyncJournal(env.db, env.folderId)).toBeUndefined();
    expect(getSyncFolder(env.db, env.folderId)?.rootCid).toBe(first.root);
    expect(fake.published.get(NAME)).toBe(first.root);
    fake.blocksMissing = false;
    const redo = await reconcileBatch(fake, env.folderId, await scanChanges());
    expect(redo.root).toBe(await expectedRoot(env.folder));
  });

  it('finishes a pending journal before applying a new batch', async () => {
    const fake = createFakeDomains(env.db);
    await put('a.txt', 'a');
    await reconcileBatch(fake, env.folderId, await scanChanges());
    await put('b.txt', 'b');
    fake.crashAt = 'publish';
    await expect(reconcileBatch(fake, env.folderId, await scanChanges())).rejects.toThrow(Crash);
    fake.crashAt = undefined;
    await put('c.txt', 'c');
    const result = await reconcileBatch(fake, env.folderId, await scanChanges());
    expect(result.root).toBe(await expectedRoot(env.folder));
    expect(fake.published.get(NAME)).toBe(result.root);
  });
});

describe('settled batches', () => {
  let env: SyncTestEnv;
  let fake: FakeDomains;
  const file = (rel: string): string => path.join(env.folder, ...rel.split('/'));
  const put = async (rel: string, text: string): Promise<void> => {
    await mkdir(path.dirname(file(rel)), { recursive: true });
    await writeFile(file(rel), text);
  };
  const sync = async (): Promise<ReconcileResult> => {
    const entries = new Map(listSyncEntries(env.db, env.folderId).map((e) => [e.pathKey, e]));
    const scan = await scanFolder({ root: env.folder, rules: createIgnoreRules(), entries });
    return reconcileBatch(fake, env.folderId, coalesce(scan.events, { caseInsensitive: false }));
  };

  beforeEach(async () => {
    env = await createSyncTestEnv({ ipnsName: NAME });
    fake = createFakeDomains(env.db);
  });
  afterEach(async () => {
    await env.cleanup();
  });

  it('each batch is recorded with its root and the files added, modified and removed, and the bytes added or modified', async () => {
    await put('a.txt', 'alpha');
    await put('docs/b.md', 'bravo');
    await put('docs/old/c.txt', 'charlie');
    const first = await sync();
    expect(recentSyncBatches(env.db, env.folderId)).toEqual([
      { root: first.root, finishedAt: expect.any(Number), added: 3, modified: 0, removed: 0, bytes: 17 },
    ]);
    await put('a.txt', 'alpha, longer');
    await put('new.txt', 'new!');
    await rm(file('docs/old'), { recursive: true });
    await rename(file('docs/b.md'), file('b.md'));
    const second = await sync();
    // The move is a path removed and a path added (its bytes were not read again, but they count as added).
    expect(recentSyncBatches(env.db, env.folderId)[0]).toEqual({
      root: second.root,
      finishedAt: expect.any(Number),
      added: 2,
      modified: 1,
      removed: 2,
      bytes: 13 + 4 + 5,
    });
    // A batch that changes nothing is no batch.
    await sync();
    expect(recentSyncBatches(env.db, env.folderId)).toHaveLength(2);
  });

  it(`keeps every batch as a version until retention releases it, then notes of the last ${KEPT_SYNC_BATCHES} only`, async () => {
    for (let i = 0; i < KEPT_SYNC_BATCHES + 3; i++) {
      await put('counter.txt', `version ${i}`);
      await sync();
    }
    const total = KEPT_SYNC_BATCHES + 3;
    const versions = syncVersions(env.db, env.folderId, 100, 0);
    expect(versions).toHaveLength(total);
    expect(versions[0]?.root).toBe(getSyncFolder(env.db, env.folderId)?.rootCid);
    expect(keptVersionRoots(env.db)).toHaveLength(total);
    // Released versions become notes: the folder's page still lists its last batches; older notes go.
    releaseSyncVersions(
      env.db,
      env.folderId,
      versions.slice(1).map((version) => version.id),
    );
    expect(syncVersions(env.db, env.folderId, 100, 0).map((version) => version.root)).toEqual([versions[0]?.root]);
    expect(keptVersionRoots(env.db)).toEqual([versions[0]?.root]);
    const batches = recentSyncBatches(env.db, env.folderId, 100);
    expect(batches).toHaveLength(KEPT_SYNC_BATCHES);
    expect(batches.slice(1).every((batch) => batch.modified === 1 && batch.added === 0)).toBe(true);
  });
});
