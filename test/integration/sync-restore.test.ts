import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SyncRestoreResult } from '../../shared/api-types.js';
import { call as callPlain, makeTempDir, startTestServer, type CallResult, type TestServer } from '../helpers/test-server.js';
import { runCli } from '../helpers/account-api.js';
import { converged, put, syncAdd, type Key } from './sync-helpers.js';

/** Every file below `dir`, `/`-separated and sorted, with its text. */
async function tree(dir: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  const walk = async (rel: string): Promise<void> => {
    for (const entry of await readdir(path.join(dir, rel), { withFileTypes: true })) {
      const child = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) await walk(child);
      else files[child] = await readFile(path.join(dir, child), 'utf8');
    }
  };
  await walk('');
  return files;
}

const BESIDE = /^a \(restored \d{4}-\d{2}-\d{2} \d{4}\)\.txt$/;

/** Restore of a synced folder's versions: a deleted file, an overwritten one, a folder, the whole folder, elsewhere. */
describe('sync history: restore', () => {
  let server: TestServer;
  let key: Key;
  let folder: string;
  let elsewhere: string;
  let id: string;
  let first: string;

  const restore = (query: Record<string, string>): Promise<CallResult<{ code: number; msg: string; data: SyncRestoreResult }>> =>
    callPlain(server, 'POST', '/api/v0/sync/restore', { key, query: { id, ...query } });

  beforeAll(async () => {
    server = await startTestServer();
    key = server.owner;
    folder = await makeTempDir('pinfold-restore-');
    elsewhere = await makeTempDir('pinfold-restore-to-');
    await put(folder, 'a.txt', 'alpha, first version');
    await put(folder, 'c.txt', 'charlie, to be deleted');
    await put(folder, 'docs/keep.md', 'unchanged');
    await put(folder, 'docs/deep/note.txt', 'deep note');
    const added = await syncAdd(server, key, { path: folder });
    expect(added.status).toBe(200);
    id = added.json.data.id;
    first = await converged(server, key, id, folder);
    await put(folder, 'a.txt', 'alpha, second version');
    await put(folder, 'b.txt', 'bravo');
    await rm(path.join(folder, 'c.txt'));
    await rm(path.join(folder, 'docs/deep'), { recursive: true });
    await converged(server, key, id, folder);
  });
  afterAll(async () => {
    await server?.stop();
    await rm(folder, { recursive: true, force: true });
    await rm(elsewhere, { recursive: true, force: true });
  });

  it('refuses bad input with 400 or 404 and writes nothing', async () => {
    const before = await tree(folder);
    const cases: Array<[Record<string, string>, number, RegExp]> = [
      [{ id: 'no-such-folder', root: first, path: 'c.txt' }, 404, /sync folder/],
      [{ root: 'not-a-cid', path: 'c.txt' }, 400, /root is not a valid CID/],
      [{ root: 'bafkqaaa', path: 'c.txt' }, 404, /not a version of sync folder/],
      [{ root: first, path: '../c.txt' }, 400, /segment "\.\."/],
      [{ root: first, path: 'docs/../../etc' }, 400, /segment "\.\."/],
      [{ root: first, path: 'c\0.txt' }, 400, /NUL/],
      [{ root: first, path: 'c.txt', to: 'relative/dir' }, 400, /to must be an absolute path/],
      [{ root: first, path: 'c.txt', overwrite: 'yes' }, 400, /overwrite must be true or false/],
      [{ root: first, path: 'missing.txt' }, 404, /missing\.txt/],
    ];
    for (const [query, status, message] of cases) {
      const response = await restore(query);
      expect(response.status, JSON.stringify(query)).toBe(status);
      expect(response.json.msg, JSON.stringify(query)).toMatch(message);
    }
    expect((await callPlain(server, 'POST', '/api/v0/sync/restore', { key, query: { root: first } })).status).toBe(400);
    expect(await tree(folder)).toEqual(before);
  });

  it('brings back a deleted file where it was, and the folder syncs it like any change', async () => {
    const response = await restore({ root: first, path: 'c.txt' });
    expect(response.status).toBe(200);
    expect(response.json.data).toEqual({
      written: [{ path: 'c.txt', local: path.join(folder, 'c.txt'), kind: 'file', beside: false, replaced: false }],
      unchanged: 0,
    });
    expect(await readFile(path.join(folder, 'c.txt'), 'utf8')).toBe('charlie, to be deleted');
    await converged(server, key, id, folder);
  });

  it('writes an overwritten file beside the newer one, and replaces it only when asked to', async () => {
    const beside = await restore({ root: first, path: 'a.txt' });
    expect(beside.status).toBe(200);
    const [entry] = beside.json.data.written;
    expect(entry).toMatchObject({ path: 'a.txt', kind: 'file', beside: true, replaced: false });
    expect(path.basename(entry?.local ?? '')).toMatch(BESIDE);
    expect(await readFile(entry?.local ?? '', 'utf8')).toBe('alpha, first version');
    expect(await readFile(path.join(folder, 'a.txt'), 'utf8')).toBe('alpha, second version');

    const replaced = await restore({ root: first, path: 'a.txt', overwrite: 'true' });
    expect(replaced.json.data.written).toEqual([{ path: 'a.txt', local: path.join(folder, 'a.txt'), kind: 'file', beside: false, replaced: true }]);
    expect(await readFile(path.join(folder, 'a.txt'), 'utf8')).toBe('alpha, first version');
    // Already as in the version: nothing to write.
    expect((await restore({ root: first, path: 'a.txt' })).json.data).toEqual({ written: [], unchanged: 1 });
    await converged(server, key, id, folder);
  });

  it('restores a folder that is gone, and the whole folder into another place', async () => {
    const deep = await restore({ root: first, path: 'docs/deep' });
    expect(deep.json.data.written.map((entry) => [entry.path, entry.kind])).toEqual([
      ['docs/deep', 'dir'],
      ['docs/deep/note.txt', 'file'],
    ]);
    expect(await readFile(path.join(folder, 'docs/deep/note.txt'), 'utf8')).toBe('deep note');

    const whole = await restore({ root: first, path: '/', to: elsewhere });
    expect(whole.status).toBe(200);
    expect(await tree(elsewhere)).toEqual({
      'a.txt': 'alpha, first version',
      'c.txt': 'charlie, to be deleted',
      'docs/keep.md': 'unchanged',
      'docs/deep/note.txt': 'deep note',
    });
    // A restore never deletes: b.txt, which the first version did not have, is still in the folder.
    expect((await tree(folder))['b.txt']).toBe('bravo');
    await converged(server, key, id, folder);
  });

  it('pinfold sync restore does the same from the command line', async () => {
    const target = path.join(elsewhere, 'from-cli');
    const result = await runCli(['sync', 'restore', id, first, 'docs/keep.md', '--to', target, '--data', server.dataDir]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`restored ${path.join(target, 'keep.md')}`);
    expect(await readFile(path.join(target, 'keep.md'), 'utf8')).toBe('unchanged');
    expect((await runCli(['sync', 'restore', id, first, '../x', '--data', server.dataDir])).code).toBe(1);
  });
});
