import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateNameKey, nameOfKey } from '../../main/names/keys.js';
import { createApiClient } from '../../renderer/api/client.js';
import type { SyncFolderView } from '../../shared/api-types.js';
import { createKey, expectError, runCli } from '../helpers/account-api.js';
import { folderTree } from '../helpers/folder-tree.js';
import { call, startTestServer, type TestServer } from '../helpers/test-server.js';
import { converged, put, syncAdd } from './sync-helpers.js';
import { until } from '../helpers/until.js';
import { tempDirs } from '../helpers/temp-dirs.js';

/** The folder as `GET /api/v0/sync` lists it. */
async function listed(server: TestServer, id: string): Promise<SyncFolderView | undefined> {
  const response = await call<{ data: SyncFolderView[] }>(server, 'GET', '/api/v0/sync', { key: server.owner });
  expect(response.status, response.text).toBe(200);
  return response.json.data.find((candidate) => candidate.id === id);
}

async function listAll(server: TestServer): Promise<SyncFolderView[]> {
  return (await call<{ data: SyncFolderView[] }>(server, 'GET', '/api/v0/sync', { key: server.owner })).json.data;
}

function follow(server: TestServer, body: unknown, key = server.owner) {
  return call<{ data: SyncFolderView }>(server, 'POST', '/api/v0/sync/follow', { key, body });
}

/**
 * Contract section 11, follow: `POST /api/v0/sync/follow` and `POST /api/v0/sync/discard` on one server (offline,
 * as tests are): bad input refused with nothing stored or made, the paths synced or followed refused, a followed
 * folder that never publishes, and a name this server holds (a sync folder's) followed into another folder: its
 * first copy, an edit reaching it, a local change kept beside an incoming one, discard. Two servers: sync-follow.test.ts.
 */
describe('sync follow API', () => {
  let server: TestServer;
  const temps = tempDirs('pinfold-follow-api-');
  let foreignName: string;
  const oldDataHome = process.env['XDG_DATA_HOME'];

  beforeAll(async () => {
    // The followed folder's removals go to a trash of the test's own, not the user's.
    process.env['XDG_DATA_HOME'] = await temps.make();
    server = await startTestServer({}, {}, undefined, { followTiming: { pollMs: 100, errorRetryMs: 100, maxRetryMs: 400 } });
    foreignName = nameOfKey(await generateNameKey());
  });
  afterAll(async () => {
    await server?.stop();
    if (oldDataHome === undefined) delete process.env['XDG_DATA_HOME'];
    else process.env['XDG_DATA_HOME'] = oldDataHome;
    await temps.removeAll();
  });

  it('bad input is a 400 naming the parameter (in msg, and as param for the form); nothing is stored and no folder made', async () => {
    const parent = await temps.make();
    await put(parent, 'file.txt', 'not a folder');
    const fresh = path.join(parent, 'new');
    const before = await listAll(server);
    const cases: [unknown, RegExp, string | undefined][] = [
      [{ path: fresh }, /^name is required/, 'name'],
      [{ name: 42, path: fresh }, /^name must be an IPNS name/, 'name'],
      [{ name: 'example.com', path: fresh }, /^name: .* is not an IPNS name/, 'name'],
      [{ name: '/ipns/not-a-key', path: fresh }, /^name: .* is not an IPNS name/, 'name'],
      [{ name: 'http://127.0.0.1:1/ipfs/x', path: fresh }, /^name: a gateway URL must end in \/ipns\/<name>/, 'name'],
      [{ name: `ftp://host/ipns/${foreignName}`, path: fresh }, /^name: .* is not an IPNS name/, 'name'],
      [{ name: foreignName, path: fresh, from: 'http://127.0.0.1:1' }, /^from/, 'from'],
      [{ name: foreignName, path: fresh, from: ['not a url'] }, /^from/, 'from'],
      [{ name: foreignName }, /^path is required/, 'path'],
      [{ name: foreignName, path: 7 }, /^path must be a string/, 'path'],
      [{ name: foreignName, path: 'relative/folder' }, /^path must be absolute/, 'path'],
      [{ name: foreignName, path: path.join(parent, 'file.txt') }, /^path: not a folder/, 'path'],
      [{ name: foreignName, path: path.join(parent, 'missing', 'deeper') }, /^path: neither the folder nor its parent exists/, 'path'],
      ['not json', /JSON/, undefined],
      [[foreignName], /JSON object/, undefined],
    ];
    for (const [body, msg, param] of cases) {
      expect(expectError(await follow(server, body), 400, msg, 'bad_input').param, msg.source).toBe(param);
    }
    expect(existsSync(fresh)).toBe(false);
    expect(await listAll(server)).toEqual(before);
  });

  it('only the owner may follow; a path synced or followed, or inside or around one, is 409; nothing changes', async () => {
    const synced = await temps.make();
    await put(synced, 'inner/a.txt', 'a');
    const added = await syncAdd(server, server.owner, { path: synced, ipns: false });
    expect(added.status, added.text).toBe(200);
    const followed = path.join(await temps.make(), 'followed');
    const first = await follow(server, { name: foreignName, path: followed });
    expect(first.status, first.text).toBe(200);
    const before = await listAll(server);
    const notAdmin = await createKey(server, server.owner, 'follow-rw', ['read', 'write', 'pin', 'unpin']);
    expectError(await follow(server, { name: foreignName, path: await temps.make() }, notAdmin), 403, /admin|owner/, 'permission');
    expect(expectError(await follow(server, { name: foreignName, path: synced }), 409, /^path: .* is already synced/, 'conflict').param).toBe('path');
    expectError(await follow(server, { name: foreignName, path: path.join(synced, 'inner') }), 409, /^path: .* overlaps the synced folder/);
    expectError(await follow(server, { name: foreignName, path: path.join(synced, 'inner', 'new') }), 409, /^path: .* overlaps the synced folder/);
    expectError(await follow(server, { name: foreignName, path: followed }), 409, /^path: .* is already followed/);
    expectError(await follow(server, { name: foreignName, path: path.dirname(followed) }), 409, /^path: .* overlaps the followed folder/);
    expectError(await syncAdd(server, server.owner, { path: followed }), 409, /^path: .* is already followed/);
    expect(existsSync(path.join(synced, 'inner', 'new'))).toBe(false);
    expect((await listAll(server)).map((row) => row.id).sort()).toEqual(before.map((row) => row.id).sort());
  });

  it('a followed name nobody answers for shows error with why; discard, publish and a sync folder discard are refused', async () => {
    const folder = path.join(await temps.make(), 'mirror');
    const answer = await follow(server, { name: `/ipns/${foreignName}`, path: folder, from: ['http://127.0.0.1:9'] });
    expect(answer.status, answer.text).toBe(200);
    const row = answer.json.data;
    expect(row).toMatchObject({
      mode: 'follow',
      ipns_name: foreignName,
      source: `http://127.0.0.1:9/ipns/${foreignName}`,
      from: ['http://127.0.0.1:9'],
      seq: 0,
    });
    expect(existsSync(folder)).toBe(true);
    const failed = await until('the follow to fail', async () => {
      const now = await listed(server, row.id);
      return now?.state === 'error' ? now : undefined;
    });
    expect(failed.error).toMatch(/offline/);
    expect(failed.checked_at).toBeGreaterThan(0);
    expectError(await call(server, 'POST', '/api/v0/sync/publish', { key: server.owner, query: { id: row.id } }), 409, /a followed folder is never published/);
    expectError(await call(server, 'POST', '/api/v0/sync/discard', { key: server.owner, query: { id: row.id } }), 409, /no followed version yet/);
    expectError(await call(server, 'POST', '/api/v0/sync/discard', { key: server.owner, query: {} }), 400, /^id is required/);
    expectError(await call(server, 'POST', '/api/v0/sync/discard', { key: server.owner, query: { id: 'nope' } }), 404, /^id: sync folder nope not found/);
    const synced = await temps.make();
    const added = await syncAdd(server, server.owner, { path: synced, ipns: false });
    expectError(await call(server, 'POST', '/api/v0/sync/discard', { key: server.owner, query: { id: added.json.data.id } }), 409, /synced, not followed/);
    // Paused, resumed, removed like a sync folder.
    for (const op of ['pause', 'resume', 'rm']) {
      const done = await call(server, 'POST', `/api/v0/sync/${op}`, { key: server.owner, query: { id: row.id } });
      expect(done.status, `${op}: ${done.text}`).toBe(200);
    }
    expect(await listed(server, row.id)).toBeUndefined();
  });

  it('follows a name held here into a folder: first copy, an edit, a local change kept beside, discard', async () => {
    const source = await temps.make();
    await put(source, 'a.txt', 'alpha');
    await put(source, 'docs/b.md', 'beta');
    const added = await syncAdd(server, server.owner, { path: source });
    expect(added.status, added.text).toBe(200);
    const name = added.json.data.ipns_name;
    await converged(server, server.owner, added.json.data.id, source);

    // Through the window's client: its parsers take the answers (shared/api-types.ts).
    const api = createApiClient({ baseUrl: server.url, credentials: { accessKey: server.owner.access_key, accessSecret: server.owner.access_secret } });
    const mirror = path.join(await temps.make(), 'mirror');
    const { id } = await api.sync.follow({ name, path: mirror });
    const copied = await until('the first copy', async () => {
      const row = await listed(server, id);
      if (row?.state !== 'idle' || row.root === '') throw new Error(JSON.stringify(row));
      return row;
    });
    expect(folderTree(mirror)).toEqual(folderTree(source));
    expect(copied.root).toBe((await listed(server, added.json.data.id))?.root);

    // A local edit on the follower, then an edit of the same file on the source: both kept.
    await writeFile(path.join(mirror, 'a.txt'), 'mine');
    await put(source, 'a.txt', 'alpha 2');
    await put(source, 'docs/c.md', 'gamma');
    const sourceRoot = await converged(server, server.owner, added.json.data.id, source);
    const updated = await until('the edit to reach the follower', async () => {
      const row = await listed(server, id);
      return row?.root === sourceRoot && row.state === 'idle' ? row : undefined;
    });
    expect(await readFile(path.join(mirror, 'a.txt'), 'utf8')).toBe('mine');
    expect(await readFile(path.join(mirror, 'docs', 'c.md'), 'utf8')).toBe('gamma');
    expect(updated.local_changes).toHaveLength(1);
    const [change] = updated.local_changes;
    expect(change?.path).toBe('a.txt');
    expect(change?.change).toBe('modified');
    expect(change?.beside).toHaveLength(1);
    expect(await readFile(path.join(mirror, change?.beside[0] ?? ''), 'utf8')).toBe('alpha 2');
    expect(updated.seq).toBeGreaterThan(copied.seq);
    const versions = await call<{ total: number }>(server, 'GET', '/api/v0/sync/versions', { key: server.owner, query: { id } });
    expect(versions.json.total).toBe(2);

    const discarded = await api.sync.discard(id);
    expect(discarded.local_changes).toEqual([]);
    expect(discarded.written).toBe(1);
    expect(discarded.trashed).toBe(2);
    expect(folderTree(mirror)).toEqual(folderTree(source));
    expect((await listed(server, id))?.local_changes).toEqual([]);

    // A rescan of a followed folder looks at the whole folder for local changes.
    await writeFile(path.join(mirror, 'extra.txt'), 'added here');
    const rescan = await call(server, 'POST', '/api/v0/sync/rescan', { key: server.owner, query: { id } });
    expect(rescan.status, rescan.text).toBe(200);
    const rescanned = await until('the rescan to list the added file', async () => {
      const row = await listed(server, id);
      return row?.local_changes.length === 1 ? row : undefined;
    });
    expect(rescanned.local_changes).toEqual([{ path: 'extra.txt', change: 'added', beside: [] }]);
  });

  it('a followed folder that is gone shows error with why, and converges once it is back (retry)', async () => {
    const source = await temps.make();
    await put(source, 'one.txt', 'one');
    const added = await syncAdd(server, server.owner, { path: source });
    expect(added.status, added.text).toBe(200);
    const root = await converged(server, server.owner, added.json.data.id, source);
    const mirror = path.join(await temps.make(), 'gone');
    const answer = await follow(server, { name: added.json.data.ipns_name, path: mirror });
    expect(answer.status, answer.text).toBe(200);
    const id = answer.json.data.id;
    await until('the first copy', async () => ((await listed(server, id))?.root === root ? true : undefined));

    await rm(mirror, { recursive: true });
    await put(source, 'two.txt', 'two');
    const next = await converged(server, server.owner, added.json.data.id, source);
    const failed = await until('the folder to show it is gone', async () => {
      const row = await listed(server, id);
      return row?.state === 'error' ? row : undefined;
    });
    expect(failed.error).toBe(`the folder ${mirror} is gone (deleted, moved or its drive unmounted)`);
    expect(failed.root).toBe(root);

    await mkdir(mirror);
    const retried = await call(server, 'POST', '/api/v0/sync/retry', { key: server.owner, query: { id } });
    expect(retried.status, retried.text).toBe(200);
    const back = await until('the folder to converge', async () => {
      const row = await listed(server, id);
      return row?.root === next && row.state === 'idle' ? row : undefined;
    });
    // The file deleted with the folder stays deleted, listed (a local change); the new one arrived.
    expect(await readFile(path.join(mirror, 'two.txt'), 'utf8')).toBe('two');
    expect(back.local_changes).toEqual([{ path: 'one.txt', change: 'deleted', beside: [] }]);

    // Restore works on a followed folder as on a synced one: the file back, and no longer a local change.
    const restored = await call<{ data: { written: { path: string }[] } }>(server, 'POST', '/api/v0/sync/restore', {
      key: server.owner,
      query: { id, root: next, path: 'one.txt' },
    });
    expect(restored.status, restored.text).toBe(200);
    expect(restored.json.data.written.map((entry) => entry.path)).toEqual(['one.txt']);
    expect(await readFile(path.join(mirror, 'one.txt'), 'utf8')).toBe('one');
    expect((await call(server, 'POST', '/api/v0/sync/rescan', { key: server.owner, query: { id } })).status).toBe(200);
    await until('the restored file to be no local change', async () => ((await listed(server, id))?.local_changes.length === 0 ? true : undefined));
  });

  it('the CLI: sync follow, sync list shows the mode and source, sync discard', async () => {
    const data = ['--data', server.dataDir];
    const mirror = path.join(await temps.make(), 'cli-mirror');
    const followed = await runCli(['sync', 'follow', `http://127.0.0.1:9/ipns/${foreignName}`, mirror, '--from', 'http://127.0.0.1:10', ...data]);
    expect(followed.stderr).toBe('');
    expect(followed.code).toBe(0);
    const id = /^id (\S+)$/m.exec(followed.stdout)?.[1] ?? '';
    expect(followed.stdout).toContain(`following http://127.0.0.1:9/ipns/${foreignName} into ${mirror}`);
    const list = await runCli(['sync', 'list', ...data]);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain(`  mode follow, source http://127.0.0.1:9/ipns/${foreignName} (also from http://127.0.0.1:10)`);
    const early = await runCli(['sync', 'discard', id, ...data]);
    expect(early.code).toBe(1);
    expect(early.stderr).toMatch(/no followed version yet.*\(HTTP 409\)/);
    const bad = await runCli(['sync', 'follow', 'example.com', path.join(await temps.make(), 'x'), ...data]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/is not an IPNS name .*\(HTTP 400\)/);
    expect((await runCli(['sync', 'follow', foreignName, ...data])).code).toBe(2);
    expect((await runCli(['sync', 'rm', id, ...data])).code).toBe(0);
  });
});
