import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PgBound } from '../../../main/store/pg/bind.js';
import type { PG_QUERY_MODULES } from '../../../main/store/pg/modules.js';
import { UniqueViolation } from '../../../main/store/repositories/index.js';
import type { JournalOp, NewSyncFolder, SyncEntry, SyncRepository } from '../../../main/store/repositories/sync.js';
import { KEPT_SYNC_BATCHES } from '../../../main/store/repositories/sync.js';
import { insertTestAccount } from '../../helpers/account-rows.js';
import { REPOSITORY_ENGINES, repository, type EngineDatabase } from '../../helpers/repository-engines.js';

// The PostgreSQL module, bound, is a SyncRepository (tsc checks this line).
const pgMatches: PgBound<(typeof PG_QUERY_MODULES)['sync']> extends SyncRepository ? true : never = true;
void pgMatches;

function file(pathKey: string, cid: string, size = 10, extra: Partial<SyncEntry> = {}): JournalOp {
  return { op: 'put', pathKey, path: pathKey.toUpperCase(), kind: 'file', size, mtimeMs: 1_700_000_000_123.5, ino: 42, cid, ...extra };
}
function dir(pathKey: string): JournalOp {
  return { op: 'put', pathKey, path: pathKey, kind: 'dir', size: 0, mtimeMs: 0, ino: 7, cid: '' };
}
function dropTree(pathKey: string): JournalOp {
  return { op: 'delete_tree', pathKey, path: pathKey, kind: 'dir' };
}

describe.each(REPOSITORY_ENGINES.map((make) => [make().name, make] as const))('SyncRepository on %s', (_name, make) => {
  const engine = make();
  let database: EngineDatabase;
  let sync: SyncRepository;
  let accountId: number;
  beforeAll(() => engine.start());
  afterAll(() => engine.stop());
  beforeEach(async () => {
    database = await engine.open();
    sync = repository(database, 'sync');
    accountId = await insertTestAccount(database, { uuid: 'account-1' });
  });
  afterEach(() => database.close());

  const folder = (id: string, createdAt = 1000, extra: Partial<NewSyncFolder> = {}): NewSyncFolder => ({
    id,
    accountId,
    path: `/home/u/${id}`,
    ipnsName: `k51${id}`,
    caseInsensitive: false,
    ignorePatterns: ['*.tmp', 'node_modules/'],
    createdAt,
    ...extra,
  });

  /** Writes and commits one batch; answers commit's answer. */
  async function commit(folderId: string, oldRoot: string, newRoot: string, ops: JournalOp[], at: number): Promise<boolean> {
    await sync.writeSyncJournal({ folderId, oldRoot, newRoot, createdAt: at, ops });
    return sync.commitSyncJournal(folderId, newRoot, at);
  }

  it('inserts a folder with its defaults, finds it by id and path, refuses a second one on the same path', async () => {
    const row = await sync.insertSyncFolder(folder('f1', 1234, { caseInsensitive: true }));
    expect(row).toEqual({
      id: 'f1',
      accountId,
      path: '/home/u/f1',
      ipnsName: 'k51f1',
      rootCid: '',
      state: 'scanning',
      error: '',
      userPaused: false,
      deviceId: '',
      caseInsensitive: true,
      ignorePatterns: ['*.tmp', 'node_modules/'],
      retention: null,
      files: 0,
      bytes: 0,
      createdAt: 1234,
      lastSyncedAt: 0,
      mode: 'sync',
      followName: '',
      followSources: [],
      followSeq: '',
      checkedAt: 0,
      localChanges: [],
    });
    expect(await sync.getSyncFolder('f1')).toEqual(row);
    expect(await sync.getSyncFolderByPath('/home/u/f1')).toEqual(row);
    expect(await sync.getSyncFolder('nope')).toBeUndefined();
    expect(await sync.getSyncFolderByPath('/home/u/nope')).toBeUndefined();
    await expect(sync.insertSyncFolder(folder('f2', 1, { path: '/home/u/f1' }))).rejects.toBeInstanceOf(UniqueViolation);
    expect(await sync.getSyncFolder('f2')).toBeUndefined();
  });

  it('lists folders newest first, ties in insertion order newest first, by account', async () => {
    const other = await insertTestAccount(database, { uuid: 'account-2' });
    await sync.insertSyncFolder(folder('b', 1000));
    await sync.insertSyncFolder(folder('a', 1000));
    await sync.insertSyncFolder(folder('c', 2000, { accountId: other }));
    await sync.insertSyncFolder(folder('d', 500));
    await sync.insertSyncFolder(folder('0', 1000));
    expect((await sync.listSyncFolders()).map((f) => f.id)).toEqual(['c', '0', 'a', 'b', 'd']);
    expect((await sync.listSyncFolders(accountId)).map((f) => f.id)).toEqual(['0', 'a', 'b', 'd']);
    expect((await sync.listSyncFolders(other)).map((f) => f.id)).toEqual(['c']);
    expect(await sync.listSyncFolders(other + 100)).toEqual([]);
  });

  it('sets state, pause, device, ignore patterns, IPNS name and retention; a missing folder is no error', async () => {
    await sync.insertSyncFolder(folder('f'));
    await sync.setSyncFolderState('f', 'error', 'disk gone');
    await sync.setSyncFolderUserPaused('f', true);
    await sync.setSyncFolderDevice('f', '66306');
    await sync.setSyncFolderIgnore('f', []);
    await sync.setSyncFolderIpnsName('f', 'k51new');
    await sync.setSyncRetention('f', 'keep 10');
    expect(await sync.getSyncFolder('f')).toMatchObject({
      state: 'error',
      error: 'disk gone',
      userPaused: true,
      deviceId: '66306',
      ignorePatterns: [],
      ipnsName: 'k51new',
      retention: 'keep 10',
    });
    await sync.setSyncFolderUserPaused('f', false);
    await sync.setSyncRetention('f', null);
    expect(await sync.getSyncFolder('f')).toMatchObject({ userPaused: false, retention: null });
    await sync.setSyncFolderState('missing', 'idle', '');
    await sync.setSyncRetention('missing', null);
    expect(await sync.getSyncFolder('missing')).toBeUndefined();
  });

  it('inserts a followed folder; sets its last check, the sequence it holds and its local changes', async () => {
    const followed = await sync.insertSyncFolder(
      folder('w', 1000, { ipnsName: '', follow: { name: 'k51followed', sources: ['http://127.0.0.1:9/', 'https://gw.example'] } }),
    );
    expect(followed).toMatchObject({
      mode: 'follow',
      followName: 'k51followed',
      followSources: ['http://127.0.0.1:9/', 'https://gw.example'],
      followSeq: '',
      rootCid: '',
      checkedAt: 0,
      localChanges: [],
    });
    await sync.setFollowChecked('w', 1234);
    await sync.setFollowSequence('w', '18446744073709551615');
    const changes = [
      { path: 'a.txt', change: 'modified' as const, beside: ['a (from gw.example, 2026-01-02 0304).txt'] },
      { path: 'sub/b.md', change: 'added' as const, beside: [] },
    ];
    await sync.setFollowLocalChanges('w', changes);
    expect(await sync.getSyncFolder('w')).toMatchObject({ checkedAt: 1234, followSeq: '18446744073709551615', localChanges: changes });
    expect(await sync.getSyncFolder('f')).toBeUndefined();
    expect((await sync.insertSyncFolder(folder('s'))).mode).toBe('sync');
  });

  it('writes, reads, replaces and discards the journal', async () => {
    await sync.insertSyncFolder(folder('f'));
    expect(await sync.getSyncJournal('f')).toBeUndefined();
    const ops = [dir('docs'), file('docs/a.txt', 'bafyA', 5_000_000_000), dropTree('old'), file('b', 'bafyB')];
    await sync.writeSyncJournal({ folderId: 'f', oldRoot: '', newRoot: 'root1', createdAt: 77, ops });
    expect(await sync.getSyncJournal('f')).toEqual({ folderId: 'f', oldRoot: '', newRoot: 'root1', createdAt: 77, ops });
    await sync.writeSyncJournal({ folderId: 'f', oldRoot: 'root1', newRoot: 'root2', createdAt: 78, ops: [] });
    expect(await sync.getSyncJournal('f')).toEqual({ folderId: 'f', oldRoot: 'root1', newRoot: 'root2', createdAt: 78, ops: [] });
    await sync.discardSyncJournal('f');
    expect(await sync.getSyncJournal('f')).toBeUndefined();
    await sync.discardSyncJournal('f');
  });

  it('commits a journal: entries in bytewise key order, totals, root, the batch counted; a replay changes nothing', async () => {
    await sync.insertSyncFolder(folder('f'));
    expect(await sync.commitSyncJournal('f', 'root1', 5)).toBe(false);
    const keys = ['a/b', 'a-b', 'a0', 'a.b', 'A', 'é', 'a/c/d', 'a', 'z'];
    const ops = keys.map((k) => (k === 'a' || k === 'a/c' ? dir(k) : file(k, `cid-${k}`, 100)));
    expect(await commit('f', '', 'root1', [dir('a/c'), ...ops], 10)).toBe(true);
    const entries = await sync.listSyncEntries('f');
    expect(entries.map((e) => e.pathKey)).toEqual(['A', 'a', 'a-b', 'a.b', 'a/b', 'a/c', 'a/c/d', 'a0', 'z', 'é']);
    expect(await sync.getSyncEntry('f', 'a/b')).toEqual({
      pathKey: 'a/b',
      path: 'A/B',
      kind: 'file',
      size: 100,
      mtimeMs: 1_700_000_000_123.5,
      ino: 42,
      cid: 'cid-a/b',
    });
    expect(await sync.getSyncEntry('f', 'nope')).toBeUndefined();
    expect((await sync.listSyncEntriesUnder('f', 'a')).map((e) => e.pathKey)).toEqual(['a/b', 'a/c', 'a/c/d']);
    expect((await sync.listSyncEntriesUnder('f', '')).length).toBe(10);
    expect(await sync.listSyncEntriesUnder('f', 'z')).toEqual([]);
    expect(await sync.getSyncFolder('f')).toMatchObject({ rootCid: 'root1', files: 8, bytes: 800, lastSyncedAt: 10 });
    expect(await sync.getSyncJournal('f')).toBeUndefined();
    expect(await sync.recentSyncBatches('f')).toEqual([{ root: 'root1', finishedAt: 10, added: 8, modified: 0, removed: 0, bytes: 800 }]);
    expect(await sync.commitSyncJournal('f', 'root1', 11)).toBe(false);
    expect(await sync.recentSyncBatches('f')).toHaveLength(1);

    // Modify one, add one, drop a tree (and its files), drop a file; a journal for another root is not committed.
    await sync.writeSyncJournal({
      folderId: 'f',
      oldRoot: 'root1',
      newRoot: 'root2',
      createdAt: 20,
      ops: [file('z', 'cid-z2', 7), file('new', 'cid-new', 3), dropTree('a'), dropTree('é')],
    });
    expect(await sync.commitSyncJournal('f', 'other', 20)).toBe(false);
    expect(await sync.getSyncJournal('f')).toBeDefined();
    expect(await sync.commitSyncJournal('f', 'root2', 20)).toBe(true);
    expect((await sync.listSyncEntries('f')).map((e) => e.pathKey)).toEqual(['A', 'a-b', 'a.b', 'a0', 'new', 'z']);
    expect(await sync.getSyncFolder('f')).toMatchObject({ rootCid: 'root2', files: 6, bytes: 100 * 4 + 7 + 3, lastSyncedAt: 20 });
    expect((await sync.recentSyncBatches('f'))[0]).toEqual({ root: 'root2', finishedAt: 20, added: 1, modified: 1, removed: 3, bytes: 10 });

    // Same root, same files: no batch; the same file put again with the same cid is no change.
    expect(await commit('f', 'root2', 'root2', [file('z', 'cid-z2', 7)], 30)).toBe(true);
    expect(await sync.recentSyncBatches('f')).toHaveLength(2);
    expect(await sync.getSyncFolder('f')).toMatchObject({ lastSyncedAt: 30 });
    // A put then a delete of the same path in one batch, and a put twice: applied in order.
    expect(await commit('f', 'root2', 'root3', [file('x', 'c1'), dropTree('x'), file('y', 'c1'), file('y', 'c2', 4)], 40)).toBe(true);
    expect(await sync.getSyncEntry('f', 'x')).toBeUndefined();
    expect(await sync.getSyncEntry('f', 'y')).toMatchObject({ cid: 'c2', size: 4 });
    expect((await sync.recentSyncBatches('f'))[0]).toEqual({ root: 'root3', finishedAt: 40, added: 1, modified: 0, removed: 0, bytes: 4 });
    // delete_tree of '' counts every file as before but drops only keys below '/'.
    expect(await commit('f', 'root3', 'root4', [dropTree('')], 50)).toBe(true);
    expect((await sync.recentSyncBatches('f'))[0]).toEqual({ root: 'root4', finishedAt: 50, added: 0, modified: 0, removed: 0, bytes: 0 });
  });

  it('deletes a folder with its entries and journal: true once, then false', async () => {
    await sync.insertSyncFolder(folder('f'));
    await commit('f', '', 'r1', [file('a', 'c')], 1);
    await sync.writeSyncJournal({ folderId: 'f', oldRoot: 'r1', newRoot: 'r2', createdAt: 2, ops: [file('b', 'c')] });
    expect(await sync.deleteSyncFolder('f')).toBe(true);
    expect(await sync.deleteSyncFolder('f')).toBe(false);
    expect(await sync.getSyncJournal('f')).toBeUndefined();
    expect(await sync.listSyncEntries('f')).toEqual([]);
    expect(await sync.recentSyncBatches('f')).toEqual([]);
    await sync.insertSyncFolder(folder('f'));
    expect(await sync.listSyncEntries('f')).toEqual([]);
  });

  it('lists versions newest first and pages them; finds one by root; releases versions and prunes their notes', async () => {
    await sync.insertSyncFolder(folder('f'));
    await sync.insertSyncFolder(folder('g'));
    let previous = '';
    for (let i = 1; i <= 25; i++) {
      const root = i === 3 ? 'r1' : `r${i}`;
      expect(await commit('f', previous, root, [file(`f${i}`, `c${i}`)], i * 10)).toBe(true);
      previous = root;
    }
    await commit('g', '', 'r1', [file('g', 'cg')], 5);
    expect(await sync.countSyncVersions('f')).toBe(25);
    expect(await sync.countSyncVersions('nope')).toBe(0);
    const all = await sync.syncVersions('f', Number.MAX_SAFE_INTEGER, 0);
    expect(all.map((v) => v.root)).toEqual(Array.from({ length: 25 }, (_, i) => (25 - i === 3 ? 'r1' : `r${25 - i}`)));
    expect(all[0]).toMatchObject({ root: 'r25', finishedAt: 250, added: 1, modified: 0, removed: 0, bytes: 10 });
    expect((await sync.syncVersions('f', 3, 2)).map((v) => v.root)).toEqual(['r23', 'r22', 'r21']);
    expect(await sync.syncVersions('f', 5, 30)).toEqual([]);
    expect((await sync.recentSyncBatches('f')).length).toBe(KEPT_SYNC_BATCHES);
    expect((await sync.recentSyncBatches('f', 2)).map((b) => b.root)).toEqual(['r25', 'r24']);
    const byRoot = await sync.syncVersionByRoot('f', 'r1');
    expect(byRoot?.finishedAt).toBe(30);
    expect(byRoot?.id).toBe(all.find((v) => v.finishedAt === 30)?.id);
    expect(await sync.syncVersionByRoot('f', 'r99')).toBeNull();
    expect(await sync.isSyncVersion('f', 'r7')).toBe(true);
    expect(await sync.isSyncVersion('g', 'r7')).toBe(false);
    expect(await sync.keptVersionRoots()).toEqual([...new Set(all.map((v) => v.root))].sort());

    // Release the five oldest (ids ascending), then the newest's neighbour: notes beyond the newest 20 batches go.
    const oldest = [...all].reverse().slice(0, 5);
    await sync.releaseSyncVersions(
      'f',
      oldest.map((v) => v.id),
    );
    await sync.releaseSyncVersions('f', []);
    expect(await sync.countSyncVersions('f')).toBe(20);
    expect(await sync.isSyncVersion('f', 'r2')).toBe(false);
    expect(await sync.syncVersionByRoot('f', 'r1')).toBeNull();
    expect(await sync.keptVersionRoots()).toContain('r1'); // folder g still keeps it
    expect((await sync.recentSyncBatches('f', 100)).length).toBe(20);
    await sync.releaseSyncVersions('f', [all[1]!.id]);
    expect((await sync.recentSyncBatches('f', 100)).map((b) => b.root)).toEqual(all.slice(0, 20).map((v) => v.root));
    expect((await sync.syncVersions('f', 2, 0)).map((v) => v.root)).toEqual(['r25', 'r23']);
  });

  it('computes history bytes: pending versions with their next newer root, set unless it changed, recounted on release', async () => {
    await sync.insertSyncFolder(folder('f'));
    expect(await sync.pendingHistoryBytes('f', 10)).toEqual([]);
    await commit('f', '', 'r1', [file('a', 'c1')], 1);
    expect(await sync.pendingHistoryBytes('f', 10)).toEqual([]);
    await commit('f', 'r1', 'r2', [file('a', 'c2')], 2);
    await commit('f', 'r2', 'r3', [file('a', 'c3')], 3);
    await commit('f', 'r3', 'r4', [file('a', 'c4')], 4);
    const versions = await sync.syncVersions('f', 10, 0);
    const id = (root: string): number => versions.find((v) => v.root === root)!.id;
    expect(await sync.pendingHistoryBytes('f', 10)).toEqual([
      { id: id('r3'), root: 'r3', newerRoot: 'r4' },
      { id: id('r2'), root: 'r2', newerRoot: 'r3' },
      { id: id('r1'), root: 'r1', newerRoot: 'r2' },
    ]);
    expect(await sync.pendingHistoryBytes('f', 1)).toEqual([{ id: id('r3'), root: 'r3', newerRoot: 'r4' }]);
    expect(await sync.setHistoryBytes(id('r3'), 'r9', 100)).toBe(false);
    expect(await sync.setHistoryBytes(id('r3'), 'r4', 5_000_000_000)).toBe(true);
    expect(await sync.setHistoryBytes(id('r2'), 'r3', 20)).toBe(true);
    expect(await sync.setHistoryBytes(id('r4'), 'r5', 1)).toBe(false);
    expect(await sync.setHistoryBytes(999_999, 'r4', 1)).toBe(false);
    expect((await sync.pendingHistoryBytes('f', 10)).map((p) => p.root)).toEqual(['r1']);
    expect((await sync.folderHistoryBytes(['f'])).get('f')).toBe(5_000_000_020);
    // Releasing r3: r2's next newer is now r4, so it is counted again; r3 is no longer kept.
    await sync.releaseSyncVersions('f', [id('r3')]);
    expect(await sync.pendingHistoryBytes('f', 10)).toEqual([
      { id: id('r2'), root: 'r2', newerRoot: 'r4' },
      { id: id('r1'), root: 'r1', newerRoot: 'r2' },
    ]);
    expect(await sync.setHistoryBytes(id('r3'), 'r4', 1)).toBe(false);
    expect((await sync.folderHistoryBytes(['f'])).get('f')).toBe(0);
    expect(await sync.setHistoryBytes(id('r2'), 'r4', 30)).toBe(true);
    expect(await sync.folderHistoryBytes(['f', 'unknown'])).toEqual(
      new Map([
        ['f', 30],
        ['unknown', 0],
      ]),
    );
  });

  it('a release racing a history-bytes write leaves the older version to be counted again', async () => {
    await sync.insertSyncFolder(folder('f'));
    await commit('f', '', 'r1', [file('a', 'c1')], 1);
    await commit('f', 'r1', 'r2', [file('a', 'c2')], 2);
    await commit('f', 'r2', 'r3', [file('a', 'c3')], 3);
    const versions = await sync.syncVersions('f', 10, 0);
    const id = (root: string): number => versions.find((v) => v.root === root)!.id;
    await Promise.all([sync.setHistoryBytes(id('r1'), 'r2', 10), sync.releaseSyncVersions('f', [id('r2')])]);
    expect(await sync.pendingHistoryBytes('f', 10)).toEqual([{ id: id('r1'), root: 'r1', newerRoot: 'r3' }]);
    expect((await sync.folderHistoryBytes(['f'])).get('f')).toBe(0);
  });

  it('commits one journal once when two commits race', async () => {
    await sync.insertSyncFolder(folder('f'));
    await sync.writeSyncJournal({ folderId: 'f', oldRoot: '', newRoot: 'r1', createdAt: 1, ops: [file('a', 'c1'), file('b', 'c2')] });
    const answers = await Promise.all([sync.commitSyncJournal('f', 'r1', 1), sync.commitSyncJournal('f', 'r1', 1), sync.commitSyncJournal('f', 'r1', 1)]);
    expect(answers.filter(Boolean)).toHaveLength(1);
    expect(await sync.recentSyncBatches('f')).toHaveLength(1);
    expect(await sync.getSyncFolder('f')).toMatchObject({ files: 2, bytes: 20 });
  });
});
