import { appendFile, mkdir, open, rename, rm, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { unmarshalIPNSRecord } from 'ipns';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, startTestServer, type TestServer } from '../helpers/test-server.js';
import { tempDirs } from '../helpers/temp-dirs.js';
import { until } from '../helpers/until.js';
import { converged, put, referenceRoot, syncAdd, syncRow, type Key } from './sync-helpers.js';

/**
 * Every change kind on a real folder, each result checked against an independent import and /ipns. Each
 * case starts from a folder of its own (a.txt, docs/b.md and an empty folder), synced and watched, so any
 * case runs alone and in any order.
 */
describe('sync: change kinds', () => {
  let server: TestServer;
  let key: Key;
  const temps = tempDirs('pinfold-sync-');
  let folder: string;
  let id = '';
  let name: string;

  const recordSeq = async (): Promise<bigint> => {
    const response = await fetch(`${server.url}/ipns/${name}?format=ipns-record&ts=${Math.floor(Date.now() / 1000)}`, {
      headers: { 'X-Access-Key': key.access_key, 'X-Access-Secret': key.access_secret },
    });
    expect(response.status).toBe(200);
    return unmarshalIPNSRecord(new Uint8Array(await response.arrayBuffer())).sequence;
  };

  beforeAll(async () => {
    server = await startTestServer();
    key = server.owner;
  });
  afterAll(async () => {
    await server?.stop();
  });

  beforeEach(async () => {
    folder = await temps.make();
    await put(folder, 'a.txt', 'alpha');
    await put(folder, 'docs/b.md', 'bravo');
    await mkdir(path.join(folder, 'empty'));
    const added = await syncAdd(server, key, { path: folder });
    expect(added.status).toBe(200);
    id = added.json.data.id;
    name = added.json.data.ipns_name;
    expect(added.json.data.path).toBe(folder);
    expect(name).toMatch(/^k51/);
    // sync/add answers once the first full scan is pinned and published.
    expect(added.json.data.root).toBe(await referenceRoot(folder));
    // Idle means watched: a change made from here on is seen by the watcher.
    await converged(server, key, id, folder);
  });
  afterEach(async () => {
    // Stops the folder's watcher before its files go.
    if (id !== '') expect((await call(server, 'POST', '/api/v0/sync/rm', { key, query: { id } })).status).toBe(200);
    id = '';
    await temps.removeAll();
  });

  it('lists the folder idle with its totals, pinned and published, once it is being watched', async () => {
    await converged(server, key, id, folder);
    const row = await syncRow(server, key, id);
    expect(row).toMatchObject({ path: folder, state: 'idle', files: 2, bytes: 10, pending: 0, error: '', ipns_name: name });
    expect(row.last_synced_at).toBeGreaterThan(0);
  });

  it('creates a file', async () => {
    await put(folder, 'new.txt', 'fresh');
    await converged(server, key, id, folder);
  });

  it('modifies a file', async () => {
    await appendFile(path.join(folder, 'a.txt'), ' and more');
    await converged(server, key, id, folder);
  });

  it('deletes a file', async () => {
    await unlink(path.join(folder, 'a.txt'));
    await converged(server, key, id, folder);
  });

  it('renames a file', async () => {
    await rename(path.join(folder, 'a.txt'), path.join(folder, 'renamed.txt'));
    await converged(server, key, id, folder);
  });

  it('moves a file across folders', async () => {
    await rename(path.join(folder, 'a.txt'), path.join(folder, 'empty', 'moved.txt'));
    await converged(server, key, id, folder);
  });

  it('creates a nested folder with files', async () => {
    await put(folder, 'x/y/z/deep.txt', 'deep');
    await mkdir(path.join(folder, 'x', 'y', 'empty-too'));
    await converged(server, key, id, folder);
  });

  it('deletes a folder with contents', async () => {
    await put(folder, 'x/y/z/deep.txt', 'deep');
    await mkdir(path.join(folder, 'x', 'y', 'empty-too'));
    await converged(server, key, id, folder);
    await rm(path.join(folder, 'x'), { recursive: true });
    await converged(server, key, id, folder);
  });

  it('settles many changes in one burst into one new root (one publish)', async () => {
    const before = await recordSeq();
    for (let i = 0; i < 60; i++) await put(folder, `burst/f${String(i).padStart(3, '0')}.txt`, `file ${i}`);
    await unlink(path.join(folder, 'docs', 'b.md'));
    await converged(server, key, id, folder);
    expect(await recordSeq()).toBe(before + 1n);
  });

  it('waits for a large file written slowly and syncs it whole', async () => {
    const file = path.join(folder, 'large.bin');
    const chunk = Buffer.alloc(512 * 1024);
    const handle = await open(file, 'w');
    try {
      for (let i = 0; i < 12; i++) {
        chunk.fill(i + 1);
        await handle.write(chunk);
        // Write the next piece once the watcher holds the file as still being written.
        await until('the write to be seen', async () => ((await syncRow(server, key, id)).pending > 0 ? true : undefined));
      }
    } finally {
      await handle.close();
    }
    const root = await converged(server, key, id, folder);
    const served = await fetch(`${server.url}/ipfs/${root}/large.bin?ts=${Math.floor(Date.now() / 1000)}`, {
      headers: { 'X-Access-Key': key.access_key, 'X-Access-Secret': key.access_secret },
    });
    expect(served.status).toBe(200);
    expect((await served.arrayBuffer()).byteLength).toBe(12 * 512 * 1024);
  });

  it('replaces a file by a folder of the same name and back', async () => {
    await unlink(path.join(folder, 'a.txt'));
    await put(folder, 'a.txt/inside.txt', 'now a folder');
    await converged(server, key, id, folder);
    await rm(path.join(folder, 'a.txt'), { recursive: true });
    await writeFile(path.join(folder, 'a.txt'), 'a file again');
    await converged(server, key, id, folder);
  });

  it('still syncs when every file is deleted by hand (same device): the empty folder', async () => {
    for (const entry of ['a.txt', 'docs', 'empty']) await rm(path.join(folder, entry), { recursive: true, force: true });
    const root = await converged(server, key, id, folder);
    expect(root).toBe('bafybeiczsscdsbs7ffqz55asqdf3smv6klcw3gofszvwlyarci47bgf354');
  });
});
