import { mkdir, readdir, readFile, realpath, rm, symlink } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SyncRestoreResult } from '../../shared/api-types.js';
import { call as callPlain, makeTempDir, startTestServer, type CallResult, type TestServer } from '../helpers/test-server.js';
import { runCli } from '../helpers/account-api.js';
import { converged, put, syncAdd, type Key } from './sync-helpers.js';

/** Every file below `dir`, `/`-separated and sorted, with its text; an empty folder as `/`, a symlink as `->`. */
async function tree(dir: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  const walk = async (rel: string): Promise<void> => {
    const entries = await readdir(path.join(dir, rel), { withFileTypes: true });
    if (entries.length === 0 && rel !== '') files[rel] = '/';
    for (const entry of entries) {
      const child = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isSymbolicLink()) files[child] = '->';
      else if (entry.isDirectory()) await walk(child);
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

  /**
   * Issue 22, item 6 (contract section 9): `to=/tmp/../etc` answered 200 and wrote /etc/keep.txt. `to` must be
   * absolute and normalized, through no symlink, and inside the synced folder or a new or empty folder.
   */
  describe('where `to` may lead', () => {
    let targets: string;
    let victim: string;
    /** Every file below the folders a refused restore must leave as they were. */
    const everything = async () => ({ folder: await tree(folder), targets: await tree(targets) });

    beforeAll(async () => {
      // Real paths: a temporary folder may sit below a symlink (/tmp, /var on macOS), which `to` may not pass.
      targets = await realpath(await makeTempDir('pinfold-restore-targets-'));
      victim = path.join(targets, 'victim');
      await put(victim, 'keep.txt', 'not the restore’s');
      await mkdir(path.join(targets, 'empty-target'));
      await mkdir(path.join(targets, 'elsewhere'));
      await symlink(path.join(targets, 'empty-target'), path.join(targets, 'link'));
    });
    afterAll(async () => {
      await rm(targets, { recursive: true, force: true });
    });

    it('refuses a climbing, dotted or relative path, an existing folder with files, a symlink on the way and a file: 400 naming to, nothing written', async () => {
      const before = await everything();
      const cases: Array<[string, RegExp]> = [
        // The report's shape: a path that climbs out of a folder into one that holds files.
        [`${targets}/elsewhere/../victim`, /^to must be a normalized path, without empty, "\." or "\.\." segments: /],
        [`${targets}/./victim`, /^to must be a normalized path/],
        [`${targets}//victim`, /^to must be a normalized path/],
        ['victim', /^to must be an absolute path/],
        ['./victim', /^to must be an absolute path/],
        [victim, new RegExp(`^to: ${victim} is a folder that already holds files, outside the synced folder`)],
        [path.join(targets, 'link'), new RegExp(`^to: ${path.join(targets, 'link')} is a symbolic link \\(to ${path.join(targets, 'empty-target')}\\)`)],
        [path.join(targets, 'link', 'new'), /is a symbolic link/],
        [path.join(victim, 'keep.txt'), new RegExp(`^to: ${path.join(victim, 'keep.txt')} is a file, not a folder$`)],
        [path.join(victim, 'keep.txt', 'below'), /keep\.txt is a file, not a folder$/],
      ];
      for (const [to, message] of cases) {
        for (const restored of ['c.txt', 'docs', '/']) {
          const response = await restore({ root: first, path: restored, to });
          expect(response.status, `${to} ${restored}`).toBe(400);
          expect(response.json.code, `${to} ${restored}`).toBe(400);
          expect(response.json.msg, `${to} ${restored}`).toMatch(message);
        }
      }
      expect(await everything()).toEqual(before);
    });

    it('writes into a folder inside the synced one (with files), a new folder (made, parents too) and an empty one', async () => {
      const real = await realpath(folder);
      const inside = await restore({ root: first, path: 'c.txt', to: path.join(real, 'docs') });
      expect(inside.status, inside.text).toBe(200);
      expect(await readFile(path.join(real, 'docs', 'c.txt'), 'utf8')).toBe('charlie, to be deleted');
      await rm(path.join(real, 'docs', 'c.txt'));

      const fresh = path.join(targets, 'new', 'deeper');
      const made = await restore({ root: first, path: 'docs', to: `${fresh}/` });
      expect(made.status, made.text).toBe(200);
      expect(await tree(fresh)).toEqual({ 'docs/keep.md': 'unchanged', 'docs/deep/note.txt': 'deep note' });

      const empty = await restore({ root: first, path: '/', to: path.join(targets, 'empty-target') });
      expect(empty.status, empty.text).toBe(200);
      expect(Object.keys(await tree(path.join(targets, 'empty-target'))).sort()).toEqual(['a.txt', 'c.txt', 'docs/deep/note.txt', 'docs/keep.md']);
      await converged(server, key, id, folder);
    });

    it('pinfold sync restore --to: the same rule, the CLI resolving a relative path against its working folder', async () => {
      const before = await everything();
      const refused: Array<[string, RegExp]> = [
        [victim, /to: .* is a folder that already holds files, outside the synced folder/],
        // Resolved by the CLI (against its working folder, or `..` taken away): a folder that holds files.
        [`${targets}/elsewhere/../victim`, /to: .*victim is a folder that already holds files/],
        ['.', /to: .* is a folder that already holds files/],
        [path.join(targets, 'link', 'new'), /is a symbolic link/],
        [path.join(victim, 'keep.txt'), /is a file, not a folder/],
      ];
      for (const [to, message] of refused) {
        const result = await runCli(['sync', 'restore', id, first, 'c.txt', '--to', to, '--data', server.dataDir]);
        expect(result.code, to).toBe(1);
        expect(result.stderr, to).toMatch(message);
        expect(result.stdout, to).toBe('');
      }
      expect(await everything()).toEqual(before);

      await mkdir(path.join(targets, 'cli-empty'));
      const taken = await runCli(['sync', 'restore', id, first, 'c.txt', '--to', path.join(targets, 'cli-empty'), '--data', server.dataDir]);
      expect(taken.stderr).toBe('');
      expect(taken.code).toBe(0);
      expect(await readFile(path.join(targets, 'cli-empty', 'c.txt'), 'utf8')).toBe('charlie, to be deleted');
    });
  });
});
