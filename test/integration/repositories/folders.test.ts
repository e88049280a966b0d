import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FolderRootStats, FoldersRepository } from '../../../main/store/repositories/folders.js';
import { REPOSITORY_ENGINES, repository, type EngineDatabase } from '../../helpers/repository-engines.js';

const STATS: FolderRootStats = { kind: 'plain', entries: 3, linksBytes: 120, blockBytes: 2 ** 45 + 7 };

describe.each(REPOSITORY_ENGINES.map((make) => [make().name, make] as const))('FoldersRepository on %s', (_name, make) => {
  const engine = make();
  let database: EngineDatabase;
  let folders: FoldersRepository;
  beforeAll(() => engine.start());
  afterAll(() => engine.stop());
  beforeEach(async () => {
    database = await engine.open();
    const repo: FoldersRepository = repository(database, 'folders');
    folders = repo;
  });
  afterEach(() => database.close());

  it('starts an import once, then records the root ready with its stats, keeping its first time', async () => {
    expect(await folders.folderRootOf('root')).toBeNull();
    expect(await folders.insertImportingFolderRoot('root', 100)).toBe(true);
    expect(await folders.folderRootOf('root')).toEqual({ cid: 'root', state: 'importing', stats: null, createdAt: 100 });
    expect(await folders.insertImportingFolderRoot('root', 200)).toBe(false);
    await folders.upsertReadyFolderRoot('root', STATS, 300);
    expect(await folders.folderRootOf('root')).toEqual({ cid: 'root', state: 'ready', stats: STATS, createdAt: 100 });
    expect(await folders.insertImportingFolderRoot('root', 400)).toBe(false);
    expect((await folders.folderRootOf('root'))?.state).toBe('ready');
    const hamt: FolderRootStats = { kind: 'hamt', entries: 10_000, linksBytes: 0, blockBytes: 1 };
    await folders.upsertReadyFolderRoot('root', hamt, 500);
    expect(await folders.folderRootOf('root')).toEqual({ cid: 'root', state: 'ready', stats: hamt, createdAt: 100 });
    await folders.upsertReadyFolderRoot('made', STATS, 600);
    expect(await folders.folderRootOf('made')).toEqual({ cid: 'made', state: 'ready', stats: STATS, createdAt: 600 });
  });

  it('records members once, drops them with their root, and counts them', async () => {
    expect(await folders.countFolderMembers()).toBe(0);
    await folders.insertImportingFolderRoot('root', 100);
    await folders.upsertReadyFolderRoot('other', STATS, 100);
    expect(await folders.isFolderMember(1, 'root')).toBe(false);
    await folders.insertFolderMember(1, 'root', 'import', 110);
    await folders.insertFolderMember(1, 'root', 'operation', 120);
    await folders.insertFolderMember(2, 'root', 'operation', 130);
    await folders.insertFolderMember(1, 'other', 'operation', 140);
    expect(await folders.isFolderMember(1, 'root')).toBe(true);
    expect(await folders.isFolderMember(2, 'root')).toBe(true);
    expect(await folders.isFolderMember(3, 'root')).toBe(false);
    expect(await folders.isFolderMember(2, 'other')).toBe(false);
    expect(await folders.countFolderMembers()).toBe(3);
    // A member of a root never recorded is refused (foreign key) on both engines.
    await expect(folders.insertFolderMember(1, 'unknown', 'import', 150)).rejects.toThrow();
    expect(await folders.countFolderMembers()).toBe(3);
    await folders.deleteFolderRoot('root');
    expect(await folders.folderRootOf('root')).toBeNull();
    expect(await folders.isFolderMember(1, 'root')).toBe(false);
    expect(await folders.countFolderMembers()).toBe(1);
    await folders.deleteFolderRoot('never');
    expect(await folders.countFolderMembers()).toBe(1);
  });

  it('deletes the imports still running, with their members, and answers how many', async () => {
    expect(await folders.deleteImportingFolderRoots()).toBe(0);
    await folders.insertImportingFolderRoot('i1', 100);
    await folders.insertImportingFolderRoot('i2', 100);
    await folders.upsertReadyFolderRoot('r1', STATS, 100);
    await folders.insertFolderMember(1, 'i1', 'import', 100);
    await folders.insertFolderMember(1, 'r1', 'import', 100);
    expect(await folders.deleteImportingFolderRoots()).toBe(2);
    expect(await folders.folderRootOf('i1')).toBeNull();
    expect(await folders.folderRootOf('r1')).not.toBeNull();
    expect(await folders.countFolderMembers()).toBe(1);
    expect(await folders.deleteImportingFolderRoots()).toBe(0);
  });

  it('pages ready roots in byte order of their CIDs after a given one', async () => {
    for (const cid of ['bafyb', 'QmZ', 'bafya', 'bafyc', 'Qma', 'bafy_']) await folders.upsertReadyFolderRoot(cid, STATS, 100);
    await folders.insertImportingFolderRoot('bafyaa', 100);
    // Binary order: uppercase before lowercase, '_' (0x5f) after 'Z' and before 'a'.
    expect(await folders.readyFolderRootCidsAfter('', 100)).toEqual(['QmZ', 'Qma', 'bafy_', 'bafya', 'bafyb', 'bafyc']);
    expect(await folders.readyFolderRootCidsAfter('', 2)).toEqual(['QmZ', 'Qma']);
    expect(await folders.readyFolderRootCidsAfter('Qma', 2)).toEqual(['bafy_', 'bafya']);
    expect(await folders.readyFolderRootCidsAfter('bafya', 10)).toEqual(['bafyb', 'bafyc']);
    expect(await folders.readyFolderRootCidsAfter('bafyc', 10)).toEqual([]);
    expect(await folders.readyFolderRootCidsAfter('', 0)).toEqual([]);
  });
});
