import { lstat, mkdir, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { MemoryBlockstore } from 'blockstore-core/memory';
import { importer } from 'ipfs-unixfs-importer';
import * as dagPb from '@ipld/dag-pb';
import { UnixFS } from 'ipfs-unixfs';
import { CID } from 'multiformats/cid';
import { sha256 } from 'multiformats/hashes/sha2';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { restoreFromVersion, type RestoreRequest } from '../../../main/sync/restore.js';
import { makeTempDir } from '../../helpers/test-server.js';

const STAMP = '2027-01-15 1230';

async function version(store: MemoryBlockstore, files: Record<string, string>): Promise<CID> {
  const source = Object.entries(files).map(([name, text]) => ({ path: `root/${name}`, content: new TextEncoder().encode(text) }));
  let root: CID | undefined;
  for await (const entry of importer(source, store, { cidVersion: 1, rawLeaves: true, wrapWithDirectory: false })) if (entry.path === 'root') root = entry.cid;
  if (!root) throw new Error('no root');
  return root;
}

describe('restoreFromVersion', () => {
  let dir = '';
  let store: MemoryBlockstore;
  let root: CID;
  const request = (overrides: Partial<RestoreRequest>): RestoreRequest => ({
    root,
    path: [],
    base: dir,
    placeAt: [],
    overwrite: false,
    stamp: STAMP,
    ...overrides,
  });

  beforeEach(async () => {
    dir = await makeTempDir('pinfold-restore-unit-');
    store = new MemoryBlockstore();
    root = await version(store, { 'a.txt': 'version a', 'sub/b.txt': 'version b' });
  });
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  it('writes a folder beside a local file of its name, and a file beside a local folder, unless overwriting', async () => {
    await writeFile(path.join(dir, 'sub'), 'a file where the version has a folder');
    await mkdir(path.join(dir, 'a.txt'));
    const result = await restoreFromVersion(store, request({}));
    expect(result.written.map((entry) => [entry.path, path.relative(dir, entry.local), entry.beside])).toEqual([
      ['a.txt', `a (restored ${STAMP}).txt`, true],
      ['sub', `sub (restored ${STAMP})`, true],
      ['sub/b.txt', `sub (restored ${STAMP})/b.txt`, false],
    ]);
    expect(await readFile(path.join(dir, 'sub'), 'utf8')).toBe('a file where the version has a folder');
    expect((await lstat(path.join(dir, 'a.txt'))).isDirectory()).toBe(true);

    const replaced = await restoreFromVersion(store, request({ overwrite: true }));
    expect(replaced.written.filter((entry) => entry.replaced).map((entry) => entry.path)).toEqual(['a.txt', 'sub']);
    expect(await readFile(path.join(dir, 'a.txt'), 'utf8')).toBe('version a');
    expect(await readFile(path.join(dir, 'sub/b.txt'), 'utf8')).toBe('version b');
  });

  it('never writes through a local symlink: a link where the version has a folder is a name taken', async () => {
    const outside = await makeTempDir('pinfold-restore-outside-');
    try {
      await symlink(outside, path.join(dir, 'sub'));
      const result = await restoreFromVersion(store, request({}));
      expect(result.written.find((entry) => entry.path === 'sub')).toMatchObject({ beside: true });
      expect(await readdir(outside)).toEqual([]);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it('leaves no temporary file behind, and counts files that already hold the version', async () => {
    await writeFile(path.join(dir, 'a.txt'), 'version a');
    const result = await restoreFromVersion(store, request({}));
    expect(result.unchanged).toBe(1);
    expect((await readdir(dir)).sort()).toEqual(['a.txt', 'sub']);
    expect(await readdir(path.join(dir, 'sub'))).toEqual(['b.txt']);
  });

  it('refuses a version whose tree holds a name that could climb out, before writing anything', async () => {
    const block = await version(store, { 'ok.txt': 'fine' });
    // A hand-made directory whose link is named '..': no importer makes one, a foreign DAG could.
    const bytes = dagPb.encode(dagPb.prepare({ Data: new UnixFS({ type: 'directory' }).marshal(), Links: [{ Hash: block, Name: '..', Tsize: 10 }] }));
    const evil = CID.createV1(dagPb.code, await sha256.digest(bytes));
    await store.put(evil, bytes);
    await expect(restoreFromVersion(store, request({ root: evil }))).rejects.toThrow(/segment "\.\."/);
    expect(await readdir(dir)).toEqual([]);
  });

  it('on Windows refuses a version holding a name Windows cannot hold, before writing anything (issue 22, item 6)', async () => {
    for (const name of ['CON.txt', 'a:b.txt', 'x\\y', 'notes.', 'nul .log']) {
      const bad = await version(store, { 'ok.txt': 'fine', [`deep/${name}`]: 'bad' });
      await expect(restoreFromVersion(store, request({ root: bad, windowsNames: true })), name).rejects.toThrow(
        `path: the version's ${JSON.stringify(`deep/${name}`)} `,
      );
      // The restored entry's own name (restore of deep/<name> into another folder) too.
      await expect(restoreFromVersion(store, request({ root: bad, path: ['deep', name], placeAt: [name], windowsNames: true })), name).rejects.toThrow(
        /nothing was restored/,
      );
      expect(await readdir(dir), name).toEqual([]);
      // Elsewhere such a name is an ordinary one.
      await expect(restoreFromVersion(store, request({ root: bad, path: ['deep', name], placeAt: [name], windowsNames: false }))).resolves.toMatchObject({
        written: [{ path: `deep/${name}` }],
      });
      await rm(path.join(dir, name));
    }
  });

  it('asks confirmBase once the folder exists, and writes nothing when it refuses', async () => {
    const base = path.join(dir, 'new');
    const seen: string[][] = [];
    const refusal = new Error('a folder was swapped in');
    const confirmBase = async (): Promise<void> => {
      seen.push(await readdir(base));
      throw refusal;
    };
    await expect(restoreFromVersion(store, request({ base, confirmBase }))).rejects.toBe(refusal);
    expect(seen).toEqual([[]]);
    expect(await readdir(base)).toEqual([]);
  });
});
