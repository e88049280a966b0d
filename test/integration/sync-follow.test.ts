import { readFile, rename, rm, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SyncDiscardResult, SyncFolderView } from '../../shared/api-types.js';
import { folderTree } from '../helpers/folder-tree.js';
import { call, makeTempDir, startTestServer, type TestServer } from '../helpers/test-server.js';
import { converged, listed, put, syncAdd } from './sync-helpers.js';
import { until } from '../helpers/until.js';

/** Waits until B's followed folder holds `root` and is idle; answers its row. */
async function holds(server: TestServer, id: string, root: string): Promise<SyncFolderView> {
  let last = '';
  try {
    return await until(`the followed folder to hold ${root}`, async () => {
      const row = await listed(server, id);
      last = `${row.state} ${row.root} ${row.error}`;
      return row.root === root && row.state === 'idle' ? row : undefined;
    });
  } catch (error) {
    throw new Error(`${(error as Error).message} (last: ${last})`, { cause: error });
  }
}

/**
 * Issue 24 on real parts: two Pinfolds on loopback. A is a public gateway with a sync folder whose name is
 * public; B follows that name through A's gateway URL (A's gateway is then B's extra source of records and
 * blocks, and A's long-poll pushes each new record to B). B's periodic check is ten minutes here, so every
 * update after the first copy reaches B by the push. The matrix of restarts, kills, tampered blocks, lower
 * sequences and large folders: sync-follow-matrix tests.
 */
describe('following a folder: A syncs, B follows through A’s gateway', () => {
  let a: TestServer;
  let b: TestServer;
  const temps: string[] = [];
  let folderA: string;
  let folderB: string;
  let idA: string;
  let idB: string;
  let name: string;
  const oldDataHome = process.env['XDG_DATA_HOME'];

  beforeAll(async () => {
    const dataHome = await makeTempDir('pinfold-follow-trash-');
    temps.push(dataHome);
    // B's removals and discards go to a trash of the test's own.
    process.env['XDG_DATA_HOME'] = dataHome;
    a = await startTestServer({ publicGateway: true, network: {} });
    b = await startTestServer({ network: {} }, {}, undefined, {
      followTiming: { pollMs: 600_000, pushCheckMs: 600_000, errorRetryMs: 200, maxRetryMs: 1000, pushWaitSeconds: 30 },
    });
    folderA = await makeTempDir('pinfold-follow-a-');
    folderB = path.join(await makeTempDir('pinfold-follow-b-'), 'mirror');
    temps.push(folderA, path.dirname(folderB));
  });
  afterAll(async () => {
    for (const server of [b, a]) await server?.stop();
    if (oldDataHome === undefined) delete process.env['XDG_DATA_HOME'];
    else process.env['XDG_DATA_HOME'] = oldDataHome;
    for (const dir of temps) await rm(dir, { recursive: true, force: true });
  });

  it('the first copy: byte for byte, its root pinned on B, fetched from A', async () => {
    await put(folderA, 'readme.txt', 'hello from A');
    await put(folderA, 'docs/guide.md', '# guide\n'.repeat(100));
    await put(
      folderA,
      'docs/deep/nested/data.bin',
      new Uint8Array(300_000).map((_, i) => (i * 7) % 251),
    );
    const added = await syncAdd(a, a.owner, { path: folderA });
    expect(added.status, added.text).toBe(200);
    idA = added.json.data.id;
    name = added.json.data.ipns_name;
    const marked = await call(a, 'POST', '/api/v0/name/public', { key: a.owner, query: { arg: name, on: true } });
    expect(marked.status, marked.text).toBe(200);
    const rootA = await converged(a, a.owner, idA, folderA);

    const followed = await call<{ data: SyncFolderView }>(b, 'POST', '/api/v0/sync/follow', {
      key: b.owner,
      body: { name: `${a.url}/ipns/${name}`, path: folderB },
    });
    expect(followed.status, followed.text).toBe(200);
    idB = followed.json.data.id;
    expect(followed.json.data).toMatchObject({ mode: 'follow', source: `${a.url}/ipns/${name}`, from: [a.url], ipns_name: name });
    const row = await holds(b, idB, rootA);
    expect(folderTree(folderB)).toEqual(folderTree(folderA));
    expect(row.checked_at).toBeGreaterThan(0);
    expect(row.local_changes).toEqual([]);
    // Pinned on B (the root of a followed version is B's, kept as a sync folder's is), and B's ingress counted it.
    const pin = await call<{ data: { status: string } }>(b, 'GET', `/api/v0/pin/${rootA}`, { key: b.owner });
    expect(pin.status, pin.text).toBe(200);
    expect(pin.json.data.status).toBe('pinned');
    const stats = await call<{ data: { ingress: number } }>(b, 'GET', '/api/v0/stats', { key: b.owner });
    expect(stats.json.data.ingress).toBeGreaterThan(300_000);
  });

  it('edits, a rename and a delete on A reach B by push, byte for byte', async () => {
    await put(folderA, 'readme.txt', 'hello again from A');
    await rename(path.join(folderA, 'docs', 'guide.md'), path.join(folderA, 'docs', 'manual.md'));
    await unlink(path.join(folderA, 'docs', 'deep', 'nested', 'data.bin'));
    await put(folderA, 'new/file.txt', 'new');
    const rootA = await converged(a, a.owner, idA, folderA);
    const before = (await listed(b, idB)).seq;
    const row = await holds(b, idB, rootA);
    expect(folderTree(folderB)).toEqual(folderTree(folderA));
    expect(row.seq).toBeGreaterThan(before);
    const versions = await call<{ total: number }>(b, 'GET', '/api/v0/sync/versions', { key: b.owner, query: { id: idB } });
    expect(versions.json.total).toBe(2);
  });

  it("B's local edit is kept beside the incoming one; discard writes the followed version back", async () => {
    await writeFile(path.join(folderB, 'readme.txt'), 'edited on B');
    await put(folderA, 'readme.txt', 'third from A');
    const rootA = await converged(a, a.owner, idA, folderA);
    const row = await holds(b, idB, rootA);
    expect(await readFile(path.join(folderB, 'readme.txt'), 'utf8')).toBe('edited on B');
    expect(row.local_changes.map((change) => [change.path, change.change])).toEqual([['readme.txt', 'modified']]);
    const beside = row.local_changes[0]?.beside ?? [];
    expect(beside).toHaveLength(1);
    expect(beside[0]).toMatch(/^readme \(from 127\.0\.0\.1, \d{4}-\d{2}-\d{2} \d{4}\)\.txt$/);
    expect(await readFile(path.join(folderB, beside[0] ?? ''), 'utf8')).toBe('third from A');

    const discarded = await call<{ data: SyncDiscardResult }>(b, 'POST', '/api/v0/sync/discard', { key: b.owner, query: { id: idB } });
    expect(discarded.status, discarded.text).toBe(200);
    expect(discarded.json.data).toEqual({ written: 1, trashed: 2, local_changes: [] });
    expect(folderTree(folderB)).toEqual(folderTree(folderA));
    expect((await listed(b, idB)).local_changes).toEqual([]);
  });
});
