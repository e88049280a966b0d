import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cp, readFile, rename, rm, unlink, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../main/store/db/database.js';
import { testServeArgs } from '../helpers/test-network.js';
import { call, startTestServer, type TestServer } from '../helpers/test-server.js';
import { readDb, repoRoot } from '../helpers/account-api.js';
import { converged, ipnsRoot, put, referenceRoot, syncAdd, syncRow, type Key } from './sync-helpers.js';
import { until } from '../helpers/until.js';
import { SQLITE_QUERIES } from '../../main/store/db/queries.js';
import { tempDirs } from '../helpers/temp-dirs.js';

const { getSyncFolder, getSyncJournal } = SQLITE_QUERIES.sync;

const { nameByName } = SQLITE_QUERIES.names;

const FIXED_MTIME = 1_700_000_000;

/** Restart, crash and unmounted-drive behaviour: the folder state survives the process. */
describe('sync across restarts', () => {
  const temps = tempDirs();
  const servers: TestServer[] = [];
  const children: ChildProcessWithoutNullStreams[] = [];
  const serve = async (dataDir: string): Promise<TestServer> => {
    const server = await startTestServer({ dataDir });
    servers.push(server);
    return server;
  };
  const stop = async (server: TestServer): Promise<void> => {
    servers.splice(servers.indexOf(server), 1);
    await server.stop();
  };
  afterEach(async () => {
    for (const child of children.splice(0)) child.kill('SIGKILL');
    for (const server of servers.splice(0)) await server.stop();
    await temps.removeAll();
  });

  it('syncs the changes made while stopped, comparing size and mtime without re-reading unchanged files', async () => {
    const data = await temps.make('pinfold-sync-data-');
    const folder = await temps.make('pinfold-sync-folder-');
    await put(folder, 'same.txt', 'original');
    await utimes(path.join(folder, 'same.txt'), FIXED_MTIME, FIXED_MTIME);
    await put(folder, 'modify.txt', 'before');
    await put(folder, 'delete.txt', 'gone soon');
    await put(folder, 'rename.txt', 'renamed while stopped');
    await put(folder, 'dir/inner.txt', 'inner');
    let server = await serve(data);
    const key: Key = server.owner;
    const added = await syncAdd(server, key, { path: folder });
    expect(added.status).toBe(200);
    const { id, ipns_name: name, root: first } = added.json.data;
    await stop(server);

    await writeFile(path.join(folder, 'modify.txt'), 'after, longer');
    await unlink(path.join(folder, 'delete.txt'));
    await rename(path.join(folder, 'rename.txt'), path.join(folder, 'renamed.txt'));
    await rm(path.join(folder, 'dir'), { recursive: true });
    await put(folder, 'new/nested.txt', 'new');
    // Same size, same mtime, other bytes: only a re-read could notice, and a restart must not re-read.
    await writeFile(path.join(folder, 'same.txt'), 'ORIGINAL');
    await utimes(path.join(folder, 'same.txt'), FIXED_MTIME, FIXED_MTIME);
    const expectedFolder = await temps.make('pinfold-sync-expected-');
    await cp(folder, expectedFolder, { recursive: true });
    await writeFile(path.join(expectedFolder, 'same.txt'), 'original');
    const expected = await referenceRoot(expectedFolder);

    server = await serve(data);
    const root = await until('the restart to sync the difference', async () => {
      const row = await syncRow(server, key, id);
      return row.root === expected && row.state === 'idle' ? row.root : undefined;
    });
    expect(root).not.toBe(first);
    expect(await ipnsRoot(server, key, name)).toBe(expected);
    expect(await readFile(path.join(folder, 'same.txt'), 'utf8')).toBe('ORIGINAL');
    // The history survives the restart: the version from before it is still a version, and restorable.
    const versions = await call<{ data: { root: string }[]; total: number }>(server, 'GET', '/api/v0/sync/versions', { key, query: { id } });
    expect(versions.json.data.map((version) => version.root)).toEqual([root, first]);
    const restored = await call(server, 'POST', '/api/v0/sync/restore', { key, query: { id, root: first, path: 'delete.txt' } });
    expect(restored.status).toBe(200);
    expect(await readFile(path.join(folder, 'delete.txt'), 'utf8')).toBe('gone soon');
  });

  it('pauses with an error when the folder root disappears, keeps the old root published, and resumes when asked', async () => {
    const data = await temps.make('pinfold-sync-data-');
    const parent = await temps.make('pinfold-sync-mount-');
    const folder = path.join(parent, 'drive');
    await put(folder, 'photo.jpg', 'pixels');
    await put(folder, 'album/other.jpg', 'more pixels');
    const server = await serve(data);
    const key = server.owner;
    const added = await syncAdd(server, key, { path: folder });
    const { id, ipns_name: name, root } = added.json.data;

    await rm(folder, { recursive: true });
    const paused = await until('paused', async () => {
      const row = await syncRow(server, key, id);
      return row.state === 'paused' ? row : undefined;
    });
    expect(paused.error).toMatch(/folder not found/);
    expect(paused.root).toBe(root);
    expect(await ipnsRoot(server, key, name)).toBe(root);
    const pin = await call<{ data: { status: string } }>(server, 'GET', `/api/v0/pin/${root}`, { key });
    expect(pin.json.data.status).toBe('pinned');

    // Still gone: resuming pauses again, with the reason.
    expect((await call(server, 'POST', '/api/v0/sync/resume', { key, query: { id } })).status).toBe(200);
    const again = await until('paused again', async () => {
      const row = await syncRow(server, key, id);
      return row.state === 'paused' && row.error !== '' ? row : undefined;
    });
    expect(again.error).toMatch(/folder not found/);
    expect(await ipnsRoot(server, key, name)).toBe(root);

    await put(folder, 'photo.jpg', 'pixels');
    expect((await call(server, 'POST', '/api/v0/sync/resume', { key, query: { id } })).status).toBe(200);
    await converged(server, key, id, folder);
  });

  it('pauses a folder whose device changed (the mount point is now an empty folder) and publishes nothing', async () => {
    const data = await temps.make('pinfold-sync-data-');
    const folder = await temps.make('pinfold-sync-folder-');
    await put(folder, 'a.txt', 'on the drive');
    let server = await serve(data);
    const key = server.owner;
    const added = await syncAdd(server, key, { path: folder });
    const { id, ipns_name: name, root } = added.json.data;
    await stop(server);

    // As after an unmount: the path is an empty folder, on another device than the one recorded.
    await rm(path.join(folder, 'a.txt'));
    const db = openDatabase(path.join(data, 'pinfold.db'));
    db.prepare('UPDATE sync_folders SET device_id = ? WHERE id = ?').run('4242', id);
    db.close();

    server = await serve(data);
    const paused = await until('paused', async () => {
      const row = await syncRow(server, key, id);
      return row.state === 'paused' ? row : undefined;
    });
    expect(paused.error).toMatch(/different device/);
    expect(paused.root).toBe(root);
    expect(await ipnsRoot(server, key, name)).toBe(root);
  });

  it('garbage collection during a long first sync cannot collect its fresh blocks (GC grace 0)', async () => {
    const data = await temps.make('pinfold-sync-data-');
    const folder = await temps.make('pinfold-sync-folder-');
    for (let d = 0; d < 4; d++) for (let f = 0; f < 60; f++) await put(folder, `d${d}/f${f}.bin`, randomBytes(64 * 1024));
    const server = await startTestServer({ dataDir: data, gcGraceSeconds: 0 });
    servers.push(server);
    const key = server.owner;
    const adding = syncAdd(server, key, { path: folder });
    await until('the first sync to run', async () => {
      const response = await call<{ data: { path: string; state: string }[] }>(server, 'GET', '/api/v0/sync', { key });
      return response.json.data?.some((row) => row.path === folder && row.state === 'syncing') ? true : undefined;
    });
    const gc = call(server, 'POST', '/api/v0/repo/gc', { key });
    const added = await adding;
    expect(added.status).toBe(200);
    expect((await gc).status).toBe(200);
    const root = added.json.data.root;
    expect(root).toBe(await referenceRoot(folder));
    expect((await call<{ data: { status: string } }>(server, 'GET', `/api/v0/pin/${root}`, { key })).json.data.status).toBe('pinned');
    // Another cycle now that the pin is in place: every block of the root is still served.
    expect((await call(server, 'POST', '/api/v0/repo/gc', { key })).status).toBe(200);
    const car = await fetch(`${server.url}/ipfs/${root}?format=car&ts=${Math.floor(Date.now() / 1000)}`, {
      headers: { 'X-Access-Key': key.access_key, 'X-Access-Secret': key.access_secret },
    });
    expect(car.status).toBe(200);
    expect((await car.arrayBuffer()).byteLength).toBeGreaterThan(240 * 64 * 1024);
  });

  it('kill -9 during a batch leaves the old root or the whole new one published, and the next start converges', async () => {
    const data = await temps.make('pinfold-sync-data-');
    const folder = await temps.make('pinfold-sync-folder-');
    await put(folder, 'seed.txt', 'seed');

    const startServe = async (): Promise<{ url: string; child: ChildProcessWithoutNullStreams }> => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'main/cli/main.ts', 'serve', ...testServeArgs(['--data', data, '--port', '0'])], {
        cwd: repoRoot,
        env: { ...process.env, PINFOLD_OWNER_KEY: '', PINFOLD_OWNER_SECRET: '' },
      });
      children.push(child);
      let out = '';
      let err = '';
      child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString('utf8');
          const match = /Pinfold listening on (http:\/\/\S+)\n/.exec(out);
          if (match) resolve(match[1] as string);
        });
        child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${err}`)));
      });
      return { url, child };
    };
    const killed = (child: ChildProcessWithoutNullStreams): Promise<void> =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      });

    let proc = await startServe();
    const key = JSON.parse(await readFile(path.join(data, 'owner-key.json'), 'utf8')) as Key;
    const server = { url: proc.url };
    const added = await syncAdd(server, key, { path: folder });
    expect(added.status).toBe(200);
    const { id, ipns_name: name } = added.json.data;

    // A batch long enough to be caught in the middle: many files across folders, moved in at once.
    const staging = await temps.make('pinfold-sync-staging-');
    for (let d = 0; d < 8; d++) {
      for (let f = 0; f < 40; f++) await put(staging, `big/d${d}/f${f}.bin`, randomBytes(192 * 1024));
    }
    await rename(path.join(staging, 'big'), path.join(folder, 'big'));
    const newRoot = await referenceRoot(folder);
    await until('the batch to be running', async () => {
      const row = await syncRow(server, key, id);
      return row.state === 'syncing' && row.pending > 0 ? true : undefined;
    });
    await killed(proc.child);

    const published = readDb({ dataDir: data }, (db) => ({
      name: nameByName(db, name)?.value,
      root: getSyncFolder(db, id)?.rootCid,
      journal: getSyncJournal(db, id)?.newRoot,
    }));
    // Published: the last committed root, or the root of the batch in flight once its journal (the
    // point of no return) is written; never anything else. A burst may settle in more than one
    // batch, so "committed" can also be a root between the old and the final one.
    expect([published.root, published.journal].filter((cid) => cid !== undefined)).toContain(published.name);

    proc = await startServe();
    const restarted = { url: proc.url };
    // Whatever was published is a whole DAG: every block is held.
    const car = await fetch(`${proc.url}/ipfs/${published.name ?? ''}?format=car&ts=${Math.floor(Date.now() / 1000)}`, {
      headers: { 'X-Access-Key': key.access_key, 'X-Access-Secret': key.access_secret },
    });
    expect(car.status).toBe(200);
    await car.arrayBuffer();
    await converged(restarted, key, id, folder);
    expect(readDb({ dataDir: data }, (db) => nameByName(db, name)?.value)).toBe(newRoot);
    await killed(proc.child);
  });
});
