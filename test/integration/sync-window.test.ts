import { execFileSync } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SyncFolderDetail } from '../../shared/api-types.js';
import { inTransaction, openDatabase } from '../../main/store/db/database.js';
import { call, startTestServer, type TestServer } from '../helpers/test-server.js';
import { expectError, readDb } from '../helpers/account-api.js';
import { converged, put, referenceRoot, syncAdd, syncList, syncRow, type Key } from './sync-helpers.js';
import { until } from '../helpers/until.js';
import { tempDirs } from '../helpers/temp-dirs.js';

/** Issue 12, api12.md section 7: what the window's Sync pages need of the sync API. */

describe('sync for the window', () => {
  let server: TestServer;
  let owner: Key;
  const temps = tempDirs('pinfold-sync-window-');
  const detail = async (id: string) =>
    call<{ code: number; msg: string; data: SyncFolderDetail }>(server, 'GET', '/api/v0/sync/detail', { key: owner, query: { id } });
  const op = async (name: 'rescan' | 'retry' | 'ignore', id: string, body?: unknown) =>
    call(server, 'POST', `/api/v0/sync/${name}`, { key: owner, query: { id }, body });

  beforeAll(async () => {
    server = await startTestServer();
    owner = server.owner;
  });
  afterAll(async () => {
    await server?.stop();
    await temps.removeAll();
  });

  it("rows carry the folder's own ignore patterns, created_at and the progress fields", async () => {
    const folder = await temps.make();
    await put(folder, 'a.txt', 'a');
    const from = Math.floor(Date.now() / 1000);
    const added = await syncAdd(server, owner, { path: folder, ipns: false, ignore: ['*.log', 'build/'] });
    expect(added.status).toBe(200);
    const row = await syncRow(server, owner, added.json.data.id);
    expect(row).toMatchObject({ ignore: ['*.log', 'build/'], files_done: 0, bytes_done: 0, bytes_pending: 0, current_file: '' });
    expect(row.created_at).toBeGreaterThanOrEqual(from);
    await call(server, 'POST', '/api/v0/sync/rm', { key: owner, query: { id: added.json.data.id } });
  });

  it('sync/add?wait=false answers at once while the first scan runs; the folder then converges', async () => {
    const folder = await temps.make();
    for (let i = 0; i < 20; i++) await put(folder, `f${i}.txt`, `file ${i}`);
    const added = await call<{ data: { id: string; path: string; root: string; ipns_name: string; state: string } }>(server, 'POST', '/api/v0/sync/add', {
      key: owner,
      query: { wait: 'false' },
      body: { path: folder },
    });
    expect(added.status).toBe(200);
    const { id } = added.json.data;
    expect(added.json.data).toEqual({ id, path: folder, root: '', ipns_name: '', state: 'scanning' });
    const root = await converged(server, owner, id, folder);
    expect(root).toBe(await referenceRoot(folder));
    expect((await syncRow(server, owner, id)).ipns_name).toMatch(/^k51/);

    const other = await temps.make();
    for (const wait of ['no', '1', 'TRUE']) {
      expectError(await call(server, 'POST', '/api/v0/sync/add', { key: owner, query: { wait }, body: { path: other } }), 400, /^wait must be true or false/);
    }
    expect((await syncList(server, owner)).some((row) => row.path === other)).toBe(false);
    await call(server, 'POST', '/api/v0/sync/rm', { key: owner, query: { id } });
  });

  it('sync/detail: the row, .pinfoldignore (at most 64 KiB), the settled batches newest first, recent errors', async () => {
    const folder = await temps.make();
    await put(folder, 'keep.txt', 'keep');
    await put(folder, 'drop.txt', 'drop');
    await put(folder, '.pinfoldignore', '*.secret\n');
    await put(folder, 'x.secret', 'hidden');
    execFileSync('mkfifo', [path.join(folder, 'pipe')]);
    const added = await syncAdd(server, owner, { path: folder, ipns: false });
    const { id, root: first } = added.json.data;
    // The folder reads "scanning" until its watcher is up: compare the detail with the row once it holds still.
    await until('the folder idle', async () => ((await syncRow(server, owner, id)).state === 'idle' ? true : undefined));
    const answer = await detail(id);
    expect(answer.status).toBe(200);
    const row = await syncRow(server, owner, id);
    const { pinfoldignore, pinfoldignore_truncated, batches, errors, retention, ...rest } = answer.json.data;
    expect(rest).toEqual({ ...row, pending: expect.any(Number) });
    expect(retention).toBe('1d:all,30d:1d,1y:1w');
    expect(pinfoldignore).toBe('*.secret\n');
    expect(pinfoldignore_truncated).toBe(false);
    expect(batches).toEqual([{ root: first, finished_at: expect.any(Number), added: 3, modified: 0, removed: 0, bytes: 4 + 4 + '*.secret\n'.length }]);
    expect(errors).toEqual([{ at: expect.any(Number), path: 'pipe', message: 'not a regular file' }]);

    await put(folder, 'keep.txt', 'kept, and longer');
    await rm(path.join(folder, 'drop.txt'));
    await put(folder, 'new.txt', 'new');
    const second = await converged(server, owner, id, folder, (rel) => rel === 'x.secret');
    const after = (await detail(id)).json.data;
    expect(after.batches[0]).toEqual({ root: second, finished_at: expect.any(Number), added: 1, modified: 1, removed: 1, bytes: 16 + 3 });
    expect(after.batches.map((batch) => batch.root)).toContain(first);

    await writeFile(path.join(folder, '.pinfoldignore'), `${'#'.repeat(70 * 1024)}\n`);
    const long = (await detail(id)).json.data;
    expect(long.pinfoldignore?.length).toBe(64 * 1024);
    expect(long.pinfoldignore_truncated).toBe(true);
    await rm(path.join(folder, '.pinfoldignore'));
    expect((await detail(id)).json.data.pinfoldignore).toBeNull();
    await call(server, 'POST', '/api/v0/sync/rm', { key: owner, query: { id } });
  });

  it('sync/rescan scans the whole folder now: it finds what the stored state lost; a paused folder is 409', async () => {
    const folder = await temps.make();
    await put(folder, 'a.txt', 'a');
    await put(folder, 'b.txt', 'b');
    const added = await syncAdd(server, owner, { path: folder, ipns: false });
    const { id, root } = added.json.data;
    // What no watcher event would tell: the stored entry of b.txt is gone.
    const db = openDatabase(path.join(server.dataDir, 'pinfold.db'));
    try {
      inTransaction(db, () => db.prepare("DELETE FROM sync_entries WHERE folder_id = ? AND path = 'b.txt'").run(id));
    } finally {
      db.close();
    }
    expect((await op('rescan', id)).json).toEqual({ code: 200, msg: 'ok' });
    const batch = await until("the rescan's batch", async () => {
      const latest = (await detail(id)).json.data.batches[0];
      return latest && latest.added === 1 ? latest : undefined;
    });
    expect(batch).toMatchObject({ root, added: 1, modified: 0, removed: 0 });
    expect(readDb(server, (reader) => reader.prepare("SELECT count(*) AS n FROM sync_entries WHERE folder_id = ? AND path = 'b.txt'").get(id))).toEqual({
      n: 1,
    });

    expect((await call(server, 'POST', '/api/v0/sync/pause', { key: owner, query: { id } })).status).toBe(200);
    expectError(await op('rescan', id), 409, /is paused; resume it to rescan/);
    await call(server, 'POST', '/api/v0/sync/rm', { key: owner, query: { id } });
  });

  it("sync/ignore replaces the folder's patterns at once: newly ignored files leave the root and come back when un-ignored, one batch each", async () => {
    const folder = await temps.make();
    await put(folder, 'a.txt', 'a');
    await put(folder, 'notes.md', 'notes');
    await put(folder, 'sub/b.txt', 'b');
    const added = await syncAdd(server, owner, { path: folder, ipns: false, ignore: ['*.md'] });
    const { id } = added.json.data;
    expect(added.json.data.root).toBe(await referenceRoot(folder, (rel) => rel === 'notes.md'));
    const batchesBefore = (await detail(id)).json.data.batches.length;

    expect((await op('ignore', id, { ignore: ['*.txt'] })).json).toEqual({ code: 200, msg: 'ok' });
    expect((await syncRow(server, owner, id)).ignore).toEqual(['*.txt']);
    await converged(server, owner, id, folder, (rel) => rel.endsWith('.txt'));
    const afterIgnore = (await detail(id)).json.data.batches;
    expect(afterIgnore).toHaveLength(batchesBefore + 1);
    expect(afterIgnore[0]).toMatchObject({ added: 1, removed: 2, modified: 0 });

    expect((await op('ignore', id, { ignore: [] })).status).toBe(200);
    await converged(server, owner, id, folder);
    expect((await detail(id)).json.data.batches[0]).toMatchObject({ added: 2, removed: 0 });

    // Bad input: 400, and the patterns stay as they are.
    const cases: [unknown, RegExp][] = [
      [{}, /^ignore is required/],
      [{ ignore: '*.txt' }, /^ignore must be an array/],
      [{ ignore: [''] }, /^ignore\[0\] is empty/],
      [{ ignore: ['ok', 3] }, /^ignore\[1\] must be a string/],
      [{ ignore: ['a\nb'] }, /^ignore\[0\] must be one pattern/],
      [{ ignore: ['x'.repeat(1025)] }, /^ignore\[0\] is longer than 1024/],
      ['not json', /JSON/],
    ];
    for (const [body, msg] of cases) expectError(await op('ignore', id, body), 400, msg);
    expect((await syncRow(server, owner, id)).ignore).toEqual([]);
    await call(server, 'POST', '/api/v0/sync/rm', { key: owner, query: { id } });
  });

  it('sync/retry: a folder paused because its folder vanished tries again now; an idle or user-paused one is 409', async () => {
    const parent = await temps.make();
    const folder = path.join(parent, 'drive');
    await put(folder, 'photo.jpg', 'pixels');
    const added = await syncAdd(server, owner, { path: folder, ipns: false });
    const { id, root } = added.json.data;
    await converged(server, owner, id, folder);
    expectError(await op('retry', id), 409, /is idle, not in error: nothing to retry/);

    await rm(folder, { recursive: true });
    await until('paused for the vanished folder', async () => ((await syncRow(server, owner, id)).state === 'paused' ? true : undefined));
    const noted = (await detail(id)).json.data.errors;
    expect(noted[0]).toMatchObject({ path: '', message: expect.stringMatching(/folder not found/) });
    await put(folder, 'photo.jpg', 'pixels');
    expect((await op('retry', id)).json).toEqual({ code: 200, msg: 'ok' });
    expect(await converged(server, owner, id, folder)).toBe(root);

    expect((await call(server, 'POST', '/api/v0/sync/pause', { key: owner, query: { id } })).status).toBe(200);
    expectError(await op('retry', id), 409, /is paused; resume it instead/);
    await call(server, 'POST', '/api/v0/sync/rm', { key: owner, query: { id } });
  });

  it('bad ids and unknown folders: 400 and 404 on every new endpoint, nothing changed', async () => {
    const before = await syncList(server, owner);
    for (const name of ['rescan', 'retry', 'ignore'] as const) {
      expectError(await call(server, 'POST', `/api/v0/sync/${name}`, { key: owner, body: { ignore: [] } }), 400, /^id is required/);
      expectError(await op(name, 'x'.repeat(65), { ignore: [] }), 400, /^id must be a sync folder id/);
      expectError(await op(name, 'no-such-folder', { ignore: [] }), 404, /^id: sync folder no-such-folder not found/);
    }
    expectError(await call(server, 'GET', '/api/v0/sync/detail', { key: owner }), 400, /^id is required/);
    expectError(await detail('no-such-folder'), 404, /not found/);
    expect(await syncList(server, owner)).toEqual(before);
  });
});
