import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestServer, type TestServer } from '../helpers/test-server.js';
import { createKey, createUser, createUserKey, expectError, runCli } from '../helpers/account-api.js';
import { converged, put, referenceRoot, syncAdd, syncList, syncRow, type Key } from './sync-helpers.js';
import { until } from '../helpers/until.js';
import { tempDirs } from '../helpers/temp-dirs.js';

/** Contract section 9: who may call, bad input, pause/resume/rm, ignore rules, unreadable files, the CLI. */
describe('sync API', () => {
  let server: TestServer;
  let owner: Key;
  const temps = tempDirs('pinfold-sync-api-');

  beforeAll(async () => {
    server = await startTestServer();
    owner = server.owner;
  });
  afterAll(async () => {
    await server?.stop();
    await temps.removeAll();
  });

  describe('access', () => {
    it('an owner key without admin, and a partner user with an admin key, get 403 on every endpoint', async () => {
      const folder = await temps.make();
      await put(folder, 'a.txt', 'a');
      const notAdmin = await createKey(server, owner, 'sync-rw', ['read', 'write', 'pin', 'unpin']);
      await createUser(server, owner, 'sync-user');
      const userAdmin = await createUserKey(server, owner, 'sync-user', 'user-admin', ['admin']);
      for (const key of [notAdmin, userAdmin]) {
        expectError(await syncAdd(server, key, { path: folder }), 403, /admin|owner/);
        expectError(await call(server, 'GET', '/api/v0/sync', { key }), 403, /admin|owner/);
        for (const op of ['pause', 'resume', 'rm']) {
          expectError(await call(server, 'POST', `/api/v0/sync/${op}`, { key, query: { id: 'x' } }), 403, /admin|owner/);
        }
      }
      expect((await syncList(server, owner)).some((row) => row.path === folder)).toBe(false);
      expect((await call(server, 'GET', '/api/v0/sync', {})).status).toBe(401);
    });
  });

  describe('bad input', () => {
    it('answers 400 naming the parameter, and adds nothing', async () => {
      const folder = await temps.make();
      await put(folder, 'file.txt', 'not a folder');
      const cases: [unknown, RegExp][] = [
        [{}, /^path is required/],
        [{ path: 42 }, /^path must be a string/],
        [{ path: 'relative/folder' }, /^path must be absolute/],
        [{ path: path.join(folder, 'missing') }, /^path: folder not found/],
        [{ path: path.join(folder, 'file.txt') }, /^path: not a folder/],
        [{ path: folder, ipns: 'yes' }, /^ipns must be true or false/],
        [{ path: folder, ignore: '*.log' }, /^ignore must be an array/],
        [{ path: folder, ignore: [''] }, /^ignore\[0\] is empty/],
        [{ path: folder, ignore: ['ok', 7] }, /^ignore\[1\] must be a string/],
        [{ path: folder, ignore: ['a\nb'] }, /^ignore\[0\] must be one pattern/],
        ['not json', /JSON/],
        [[folder], /JSON object/],
      ];
      for (const [body, msg] of cases) expectError(await syncAdd(server, owner, body), 400, msg);
      expect((await syncList(server, owner)).some((row) => row.path.startsWith(folder))).toBe(false);
    });

    it('an already synced path, or one inside or around a synced folder, is 409', async () => {
      const folder = await temps.make();
      await put(folder, 'inner/a.txt', 'a');
      const added = await syncAdd(server, owner, { path: folder, ipns: false });
      expect(added.status).toBe(200);
      expect(added.json.data.ipns_name).toBe('');
      const before = await syncList(server, owner);
      expectError(await syncAdd(server, owner, { path: folder }), 409, /^path: .* already synced/);
      expectError(await syncAdd(server, owner, { path: `${folder}/` }), 409, /^path: .* already synced/);
      expectError(await syncAdd(server, owner, { path: path.join(folder, 'inner') }), 409, /^path: .* overlaps/);
      expectError(await syncAdd(server, owner, { path: path.dirname(folder) }), 409, /^path: .* overlaps/);
      expect((await syncList(server, owner)).map((row) => row.id)).toEqual(before.map((row) => row.id));
      expect((await call(server, 'POST', '/api/v0/sync/rm', { key: owner, query: { id: added.json.data.id } })).status).toBe(200);
    });

    it('pause, resume and rm: a missing id is 400, an unknown one 404', async () => {
      for (const op of ['pause', 'resume', 'rm']) {
        expect(expectError(await call(server, 'POST', `/api/v0/sync/${op}`, { key: owner }), 400, /^id is required/).param).toBe('id');
        expectError(
          await call(server, 'POST', `/api/v0/sync/${op}`, { key: owner, query: { id: 'no-such-folder' } }),
          404,
          /^id: sync folder no-such-folder not found/,
        );
      }
    });
  });

  it('pause stops syncing, resume catches up, rm stops and unpins nothing', async () => {
    const folder = await temps.make();
    await put(folder, 'a.txt', 'one');
    const added = await syncAdd(server, owner, { path: folder });
    const { id, root, ipns_name: name } = added.json.data;
    expect(added.status).toBe(200);

    expect((await call(server, 'POST', '/api/v0/sync/pause', { key: owner, query: { id } })).json).toEqual({ code: 200, msg: 'ok' });
    expect(await syncRow(server, owner, id)).toMatchObject({ state: 'paused', root, error: '' });
    await put(folder, 'b.txt', 'written while paused');
    expect((await syncRow(server, owner, id)).root).toBe(root);

    expect((await call(server, 'POST', '/api/v0/sync/resume', { key: owner, query: { id } })).status).toBe(200);
    const next = await converged(server, owner, id, folder);
    expect(next).not.toBe(root);

    expect((await call(server, 'POST', '/api/v0/sync/rm', { key: owner, query: { id } })).status).toBe(200);
    expect((await syncList(server, owner)).some((row) => row.id === id)).toBe(false);
    const pin = await call<{ data: { status: string } }>(server, 'GET', `/api/v0/pin/${next}`, { key: owner });
    expect(pin.json.data.status).toBe('pinned');
    const name2 = await call(server, 'GET', `/api/v0/ipns/${name}`, { key: owner });
    expect(name2.status).toBe(200);
    // The folder can be added again.
    const again = await syncAdd(server, owner, { path: folder, ipns: false });
    expect(again.status).toBe(200);
    expect(again.json.data.root).toBe(next);
    await call(server, 'POST', '/api/v0/sync/rm', { key: owner, query: { id: again.json.data.id } });
  });

  it('ignores default junk, add-time patterns and .pinfoldignore files, and follows edits of the latter', async () => {
    const folder = await temps.make();
    await put(folder, 'keep.txt', 'keep');
    for (const junk of ['.DS_Store', 'Thumbs.db', 'desktop.ini', 'x.tmp', 'movie.part', 'dl.crdownload', '~$report.docx', '.~lock.sheet#'])
      await put(folder, junk, 'junk');
    await put(folder, 'debug.log', 'pattern');
    await put(folder, 'build/out.o', 'pattern');
    await put(folder, '.pinfoldignore', 'secret.txt\n');
    await put(folder, 'secret.txt', 'hidden by the root ignore file');
    await put(folder, 'sub/.pinfoldignore', '*.bak\n');
    await put(folder, 'sub/data.bak', 'hidden in sub');
    await put(folder, 'data.bak', 'not hidden at the root');
    const ignored = new Set([
      '.DS_Store',
      'Thumbs.db',
      'desktop.ini',
      'x.tmp',
      'movie.part',
      'dl.crdownload',
      '~$report.docx',
      '.~lock.sheet#',
      'debug.log',
      'build',
      'secret.txt',
      'sub/data.bak',
    ]);
    const added = await syncAdd(server, owner, { path: folder, ignore: ['*.log', 'build/'] });
    expect(added.status).toBe(200);
    expect(added.json.data.root).toBe(await referenceRoot(folder, (rel) => ignored.has(rel)));
    const { id } = added.json.data;

    await put(folder, 'new.tmp', 'junk');
    await put(folder, 'sub/new.bak', 'ignored');
    await put(folder, 'sub/new.txt', 'synced');
    ignored.add('new.tmp').add('sub/new.bak');
    await converged(server, owner, id, folder, (rel) => ignored.has(rel));

    await writeFile(path.join(folder, '.pinfoldignore'), '# nothing ignored here any more\n');
    ignored.delete('secret.txt');
    await converged(server, owner, id, folder, (rel) => ignored.has(rel));
    await call(server, 'POST', '/api/v0/sync/rm', { key: owner, query: { id } });
  });

  it('reports an unreadable file with its path and reason while the rest syncs', async () => {
    const folder = await temps.make();
    await put(folder, 'good.txt', 'good');
    // Tests run as root, which reads any mode-000 file: a FIFO is what nobody can read as a file.
    execFileSync('mkfifo', [path.join(folder, 'pipe')]);
    const added = await syncAdd(server, owner, { path: folder });
    expect(added.status).toBe(200);
    expect(added.json.data.root).toBe(await referenceRoot(folder));
    const { id } = added.json.data;
    const row = await syncRow(server, owner, id);
    expect(row.unreadable).toEqual([{ path: 'pipe', reason: 'not a regular file' }]);
    expect(row.error).toMatch(/pipe \(not a regular file\)/);
    expect(row.files).toBe(1);

    await mkdir(path.join(folder, 'later'));
    execFileSync('mkfifo', [path.join(folder, 'later', 'pipe2')]);
    await put(folder, 'later/fine.txt', 'fine');
    await converged(server, owner, id, folder);
    const after = await until('the second pipe reported', async () => {
      const current = await syncRow(server, owner, id);
      return current.unreadable.some((entry) => entry.path === 'later/pipe2') ? current : undefined;
    });
    expect(after.error).toMatch(/later\/pipe2 \(not a regular file\)/);
    await call(server, 'POST', '/api/v0/sync/rm', { key: owner, query: { id } });
  });

  it('the CLI adds, lists with progress, pauses, resumes and removes through the running server', async () => {
    const folder = await temps.make();
    await put(folder, 'cli.txt', 'from the cli');
    await put(folder, 'skip.log', 'ignored');
    const data = ['--data', server.dataDir];
    const add = await runCli(['sync', 'add', folder, '--no-ipns', '--ignore', '*.log', ...data]);
    expect(add.stderr).toBe('');
    expect(add.code).toBe(0);
    const id = /^id (\S+)$/m.exec(add.stdout)?.[1] ?? '';
    expect(add.stdout).toContain(`root ${await referenceRoot(folder, (rel) => rel === 'skip.log')}`);
    expect(add.stdout).toMatch(/^ipns -$/m);

    const list = await runCli(['sync', 'list', ...data]);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain(`${id}  idle  ${folder}`);
    expect(list.stdout).toMatch(/files 1, 12 B; pending 0/);

    expect((await runCli(['sync', 'pause', id, ...data])).stdout).toBe(`${id} paused\n`);
    expect((await syncRow(server, owner, id)).state).toBe('paused');
    expect((await runCli(['sync', 'resume', id, ...data])).code).toBe(0);
    await until('resumed', async () => ((await syncRow(server, owner, id)).state === 'idle' ? true : undefined));
    expect((await runCli(['sync', 'rm', id, ...data])).stdout).toBe(`${id} removed (nothing unpinned)\n`);
    expect((await syncList(server, owner)).some((row) => row.id === id)).toBe(false);

    const unknown = await runCli(['sync', 'pause', 'no-such-id', ...data]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/id: sync folder no-such-id not found \(HTTP 404\)/);
    const usage = await runCli(['sync', 'add', ...data]);
    expect(usage.code).toBe(2);
  });
});
