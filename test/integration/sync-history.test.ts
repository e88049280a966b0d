import { rm, unlink } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SyncFolderDetail, SyncVersion, SyncVersionDiff, SyncVersionEntry } from '../../shared/api-types.js';
import { call as callPlain, makeTempDir, startTestServer, type CallResult, type TestServer } from '../helpers/test-server.js';
import { runCli } from '../helpers/account-api.js';
import { converged, put, syncAdd, syncList, type Key } from './sync-helpers.js';
import { until } from '../helpers/until.js';

/** `call` with the query written in the route (`/api/v0/sync/diff?id=…`), beside the `ts` it adds. */
function call<T = unknown>(server: TestServer, method: string, route: string, options: { key: Key; body?: unknown }): Promise<CallResult<T>> {
  const [pathname = '', search = ''] = route.split('?');
  return callPlain<T>(server, method, pathname, { ...options, query: Object.fromEntries(new URLSearchParams(search)) });
}

/** Every version of a synced folder: kept from GC, listed, compared, and let go by retention (GC grace 0). */
describe('sync history: versions, diff and retention', () => {
  let server: TestServer;
  let key: Key;
  let folder: string;
  let id: string;
  let first: string;
  let second: string;

  const ts = (): number => Math.floor(Date.now() / 1000);
  const gateway = (ipfsPath: string): Promise<Response> =>
    fetch(`${server.url}${ipfsPath}?ts=${ts()}`, { headers: { 'X-Access-Key': key.access_key, 'X-Access-Secret': key.access_secret } });
  const versions = async (query = ''): Promise<{ data: SyncVersion[]; total: number }> => {
    const response = await call<{ code: number; data: SyncVersion[]; total: number }>(server, 'GET', `/api/v0/sync/versions?id=${id}${query}`, { key });
    expect(response.status).toBe(200);
    return response.json;
  };
  const gc = async (): Promise<void> => {
    expect((await call(server, 'POST', '/api/v0/repo/gc', { key })).status).toBe(200);
  };
  const detail = async (): Promise<SyncFolderDetail> =>
    (await call<{ data: SyncFolderDetail }>(server, 'GET', `/api/v0/sync/detail?id=${id}`, { key })).json.data;

  beforeAll(async () => {
    server = await startTestServer({ gcGraceSeconds: 0 });
    key = server.owner;
    folder = await makeTempDir('pinfold-history-');
    await put(folder, 'a.txt', 'alpha, first version');
    await put(folder, 'c.txt', 'charlie, to be removed');
    await put(folder, 'docs/keep.md', 'unchanged');
    const added = await syncAdd(server, key, { path: folder });
    expect(added.status).toBe(200);
    id = added.json.data.id;
    first = added.json.data.root;
    await converged(server, key, id, folder);
    await put(folder, 'a.txt', 'alpha, second version');
    await put(folder, 'b.txt', 'bravo');
    await unlink(path.join(folder, 'c.txt'));
    second = await converged(server, key, id, folder);
    expect(second).not.toBe(first);
  });
  afterAll(async () => {
    await server?.stop();
    await rm(folder, { recursive: true, force: true });
  });

  it('lists the versions newest first, the current root first, with what each batch changed', async () => {
    const listed = await versions();
    expect(listed.total).toBeGreaterThanOrEqual(2);
    expect(listed.data[0]).toMatchObject({ root: second });
    expect(listed.data.map((version) => version.root)).toContain(first);
    expect(listed.data.at(-1)?.root).toBe(first);
    expect(listed.data[0]?.created_at).toBeGreaterThanOrEqual(listed.data.at(-1)?.created_at ?? Infinity);
    const paged = await versions('&limit=1&start=1');
    expect(paged.total).toBe(listed.total);
    expect(paged.data).toEqual([listed.data[1]]);
    expect((await detail()).retention).toBe('1d:all,30d:1d,1y:1w');
  });

  it('reports the bytes only the history holds: what the older version had that the current one no longer has', async () => {
    // The first version's a.txt and c.txt (20 and 22 bytes, raw leaves) and its root directory node.
    const held = await until('history bytes to be counted', async () => {
      const row = (await syncList(server, key)).find((each) => each.id === id);
      return row !== undefined && row.history_bytes > 0 ? row.history_bytes : undefined;
    });
    expect(held).toBeGreaterThan(20 + 22);
    expect(held).toBeLessThan(20 + 22 + 512);
  });

  it('diffs two versions by path', async () => {
    const response = await call<{ code: number; data: SyncVersionDiff }>(server, 'GET', `/api/v0/sync/diff?id=${id}&from=${first}&to=${second}`, { key });
    expect(response.status).toBe(200);
    expect(response.json.data).toEqual({ added: ['b.txt'], modified: ['a.txt'], removed: ['c.txt'] });
  });

  it("lists a directory of a version with the kind of each entry (the window's tree view)", async () => {
    type Tree = { code: number; msg: string; data: { entries: SyncVersionEntry[]; truncated: boolean } };
    const top = await call<Tree>(server, 'GET', `/api/v0/sync/tree?id=${id}&root=${first}&path=`, { key });
    expect(top.status, top.text).toBe(200);
    expect(top.json.data.truncated).toBe(false);
    expect(top.json.data.entries.map(({ name, kind, size }) => ({ name, kind, size }))).toEqual([
      { name: 'a.txt', kind: 'file', size: 'alpha, first version'.length },
      { name: 'c.txt', kind: 'file', size: 'charlie, to be removed'.length },
      { name: 'docs', kind: 'dir', size: expect.any(Number) as number },
    ]);
    const docs = await call<Tree>(server, 'GET', `/api/v0/sync/tree?id=${id}&root=${first}&path=docs`, { key });
    expect(docs.json.data.entries.map((entry) => entry.name)).toEqual(['keep.md']);
    const refusals: Array<[string, number]> = [
      [`/api/v0/sync/tree?id=${id}&root=${first}&path=a.txt`, 400],
      [`/api/v0/sync/tree?id=${id}&root=${first}&path=..`, 400],
      [`/api/v0/sync/tree?id=${id}&root=${first}&path=nope`, 404],
      [`/api/v0/sync/tree?id=${id}&root=bafkqaaa`, 404],
    ];
    for (const [route, status] of refusals) expect((await call(server, 'GET', route, { key })).status, route).toBe(status);
  });

  it('keeps an old version whole through garbage collection, though its root is no longer pinned', async () => {
    await gc();
    // The pin list keeps its meaning: the previous root was unpinned, and GC has dropped that pin.
    expect((await call(server, 'GET', `/api/v0/pin/${first}`, { key })).status).toBe(404);
    const old = await gateway(`/ipfs/${first}/c.txt`);
    expect(old.status).toBe(200);
    expect(await old.text()).toBe('charlie, to be removed');
  });

  it('refuses bad input and changes nothing', async () => {
    const before = await versions();
    const refusals: Array<[string, string, number]> = [
      ['GET', `/api/v0/sync/diff?id=${id}&from=${first}&to=bafkqaaa`, 404],
      ['GET', `/api/v0/sync/diff?id=${id}&from=not-a-cid&to=${second}`, 400],
      ['GET', `/api/v0/sync/diff?id=${id}&to=${second}`, 400],
      ['GET', `/api/v0/sync/diff?id=nope&from=${first}&to=${second}`, 404],
      ['GET', `/api/v0/sync/versions?id=${id}&limit=0`, 400],
      ['GET', `/api/v0/sync/versions?id=${id}&limit=abc`, 400],
      ['GET', `/api/v0/sync/versions?id=${id}&start=-1`, 400],
      ['GET', '/api/v0/sync/versions', 400],
    ];
    for (const [method, route, status] of refusals) {
      const response = await call<{ code: number; msg: string }>(server, method, route, { key });
      expect(response.status, route).toBe(status);
      expect(response.json.code, route).toBe(status);
      expect(response.json.msg, route).not.toBe('');
    }
    for (const keep of ['sometimes', '0d:all', '', 5]) {
      const response = await call(server, 'POST', `/api/v0/sync/retention?id=${id}`, { key, body: { keep } });
      expect(response.status, String(keep)).toBe(400);
    }
    expect(await versions()).toEqual(before);
    expect((await detail()).retention).toBe('1d:all,30d:1d,1y:1w');
  });

  it('pinfold sync versions|diff|keep do the same from the command line', async () => {
    const data = ['--data', server.dataDir];
    const listed = await runCli(['sync', 'versions', id, ...data]);
    expect(listed.code).toBe(0);
    const lines = listed.stdout.trim().split('\n');
    expect(lines[0]).toContain(second);
    expect(lines.at(-1)).toContain(first);
    const diff = await runCli(['sync', 'diff', id, first, second, ...data]);
    expect(diff).toMatchObject({ code: 0, stdout: 'A b.txt\nM a.txt\nD c.txt\n' });
    const bad = await runCli(['sync', 'keep', id, 'sometimes', ...data]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/keep/);
    expect((await detail()).retention).toBe('1d:all,30d:1d,1y:1w');
    const kept = await runCli(['sync', 'keep', id, '30d:1d,24h:all', ...data]);
    expect(kept).toMatchObject({ code: 0, stdout: `${id} keeps 1d:all,30d:1d\n` });
    expect((await detail()).retention).toBe('1d:all,30d:1d');
    expect((await runCli(['sync', 'diff', id, first, ...data])).code).toBe(2);
  });

  it('sync add takes the policy too; a bad one adds nothing', async () => {
    const other = await makeTempDir('pinfold-history-other-');
    try {
      await put(other, 'x.txt', 'x');
      const before = (await call<{ data: unknown[] }>(server, 'GET', '/api/v0/sync', { key })).json.data.length;
      const refused = await syncAdd(server, key, { path: other, ipns: false, keep: '1d:sometimes' });
      expect(refused.status).toBe(400);
      expect((await call<{ data: unknown[] }>(server, 'GET', '/api/v0/sync', { key })).json.data).toHaveLength(before);
      const added = await syncAdd(server, key, { path: other, ipns: false, keep: 'all' });
      expect(added.status).toBe(200);
      const otherDetail = await call<{ data: SyncFolderDetail }>(server, 'GET', `/api/v0/sync/detail?id=${added.json.data.id}`, { key });
      expect(otherDetail.json.data.retention).toBe('all');
      expect((await call(server, 'POST', `/api/v0/sync/rm?id=${added.json.data.id}`, { key })).status).toBe(200);
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });

  it('keep none lets the old versions go, and the next garbage collection frees what only they held', async () => {
    const response = await call<{ data: { keep: string } }>(server, 'POST', `/api/v0/sync/retention?id=${id}`, { key, body: { keep: 'none' } });
    expect(response.status).toBe(200);
    expect(response.json.data.keep).toBe('none');
    expect((await detail()).retention).toBe('none');
    const left = await versions();
    expect(left).toEqual({ code: 200, data: [expect.objectContaining({ root: second })], total: 1 });
    await gc();
    expect((await gateway(`/ipfs/${first}/c.txt`)).status).toBe(404);
    // What the current version shares with the old one stays.
    expect(await (await gateway(`/ipfs/${second}/docs/keep.md`)).text()).toBe('unchanged');
    expect(await (await gateway(`/ipfs/${second}/a.txt`)).text()).toBe('alpha, second version');
    // A released version is no version any more.
    const diff = await call(server, 'GET', `/api/v0/sync/diff?id=${id}&from=${first}&to=${second}`, { key });
    expect(diff.status).toBe(404);
    expect((await syncList(server, key)).find((each) => each.id === id)?.history_bytes).toBe(0);
  });
});
