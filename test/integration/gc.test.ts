import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PinRecord } from '../../shared/api-types.js';
import { call, makeTempDir, startTestServer, testClock, type TestServer } from '../helpers/test-server.js';
import { createUser, createUserKey, expectError, runCli } from '../helpers/account-api.js';
import { deferred } from '../helpers/deferred.js';
import { expectReadable, pinAdd, runGc, served } from './gc-helpers.js';
import { dagAdd, step1, step2, EMPTY_DIR_V1, fileDag, MiB, randomData, stats, uploadCid } from './uploads-helpers.js';
import { until } from '../helpers/until.js';

/** Files built from a few shared 1 MiB chunks and a unique tail: their DAGs share leaves. */
function sharedChunkFile(chunks: readonly Uint8Array[], picks: readonly number[], tail: number): Uint8Array {
  return new Uint8Array(Buffer.concat([...picks.map((i) => chunks[i] as Uint8Array), randomBytes(tail)]));
}

describe('garbage collection with --gc-grace 0 (contract section 6)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ gcGraceSeconds: 0 });
  });
  afterAll(async () => {
    await server.stop();
  });

  it('deletes unpinned content, keeps pinned content, and keeps blocks an unpinned DAG shares with a pinned one', async () => {
    const chunks = [randomData(MiB), randomData(MiB)];
    const unpinnedData = sharedChunkFile(chunks, [0, 1], 500);
    const pinnedData = sharedChunkFile(chunks, [1, 0], 700);
    const loneData = randomData(3000);
    const unpinned = await fileDag(unpinnedData);
    const pinned = await fileDag(pinnedData);
    expect(await uploadCid(server, server.owner, unpinnedData)).toBe(unpinned.root.toString());
    expect(await uploadCid(server, server.owner, pinnedData)).toBe(pinned.root.toString());
    const lone = await uploadCid(server, server.owner, loneData);
    expect(await pinAdd(server, server.owner, pinned.root.toString())).toBe(200);
    const before = await stats(server, server.owner);

    const result = await runGc(server, server.owner);
    // The unpinned root, its unique tail leaf, and the lone file.
    expect(result).toEqual({ pins_removed: 0, blocks_deleted: 3 });
    expect(await served(server, server.owner, `/ipfs/${lone}`)).toBeNull();
    expect(await served(server, server.owner, `/ipfs/${unpinned.root.toString()}`, 'raw')).toBeNull();
    await expectReadable(server, server.owner, pinned.root.toString(), pinnedData);
    const sharedLeaves = unpinned.blocks.filter((block) => pinned.blocks.some((other) => other.cid.equals(block.cid)));
    expect(sharedLeaves.length).toBe(2);
    for (const leaf of sharedLeaves) expect(await served(server, server.owner, `/ipfs/${leaf.cid.toString()}`, 'raw')).not.toBeNull();
    // GC frees no counter of a pinned DAG.
    expect((await stats(server, server.owner)).pinned_bytes).toBe(before.pinned_bytes);
  });

  it('a path served before a collection is not served through the directories it deleted (the gateway keeps resolved paths)', async () => {
    const fileData = randomData(3000);
    const file = await uploadCid(server, server.owner, fileData);
    expect(await pinAdd(server, server.owner, file)).toBe(200);
    const dir = (await dagAdd(server, server.owner, EMPTY_DIR_V1, 'docs/kept.bin', fileData)).headers.get('ipfs-hash') as string;
    // Twice: the second answer comes from the resolved path the first one left.
    for (let i = 0; i < 2; i++)
      expect(Buffer.compare((await served(server, server.owner, `/ipfs/${dir}/docs/kept.bin`)) as Buffer, Buffer.from(fileData))).toBe(0);

    await runGc(server, server.owner);
    expect(await served(server, server.owner, `/ipfs/${dir}/docs/kept.bin`)).toBeNull();
    await expectReadable(server, server.owner, file, fileData);
  });

  it('an unpinned DAG whose directory is pinned elsewhere keeps every block the pin reaches', async () => {
    const fileData = randomData(MiB + 99);
    const cid = await uploadCid(server, server.owner, fileData);
    const dir = (await dagAdd(server, server.owner, EMPTY_DIR_V1, 'docs/file.bin', fileData)).headers.get('ipfs-hash') as string;
    expect(await pinAdd(server, server.owner, dir)).toBe(200);
    await runGc(server, server.owner);
    await expectReadable(server, server.owner, cid, fileData);
    await expectReadable(server, server.owner, `${dir}/docs/file.bin`, fileData);
  });

  it('pin rm then GC: the pin is removed, its blocks deleted, the counters released', async () => {
    const data = randomData(2 * MiB + 1);
    const cid = await uploadCid(server, server.owner, data);
    expect(await pinAdd(server, server.owner, cid)).toBe(200);
    const pinned = await stats(server, server.owner);
    expect((await call(server, 'POST', '/api/v0/pin/rm', { key: server.owner, query: { arg: cid } })).status).toBe(200);
    const result = await runGc(server, server.owner);
    expect(result.pins_removed).toBe(1);
    expect(result.blocks_deleted).toBe(4);
    expect(await served(server, server.owner, `/ipfs/${cid}`, 'raw')).toBeNull();
    const after = await stats(server, server.owner);
    expect(after.pinned_count).toBe(pinned.pinned_count - 1);
    expect(after.pinned_bytes).toBe(pinned.pinned_bytes - (await fileDag(data)).blocks.reduce((n, b) => n + b.bytes.byteLength, 0));
  });

  it('repo/gc is the owner’s alone', async () => {
    const uuid = randomUUID();
    await createUser(server, server.owner, uuid);
    const user = await createUserKey(server, server.owner, uuid, 'admin', ['admin']);
    expectError(await call(server, 'POST', '/api/v0/repo/gc', { key: user }), 403, /owner/);
  });
});

describe('garbage collection beside concurrent writers (on a clock the test moves)', () => {
  const GRACE_SECONDS = 600;
  let server: TestServer;
  const clock = testClock();
  beforeAll(async () => {
    // Blocks age only when the test moves the clock, never because the machine is slow: every pin lands
    // within the grace, and what was garbage when the clock moved is old enough to go at the next cycle.
    server = await startTestServer({ gcGraceSeconds: GRACE_SECONDS, tsWindowSeconds: 24 * 3600 }, {}, clock);
  });
  afterAll(async () => {
    await server.stop();
  });

  it('GC cycles running beside uploads, DAG edits and pin adds never delete a block a pin reaches', async () => {
    const WORKERS = 3;
    const STEPS = 14;
    const chunks = [randomData(MiB), randomData(MiB), randomData(MiB)];
    const contents = new Map<string, Uint8Array>();
    const dirFiles = new Map<string, Record<string, Uint8Array>>();
    // Old garbage made of the shared chunks: the first cycles delete it while the workers upload files
    // that reuse those chunks, so a chunk may be listed for deletion and uploaded again at once.
    for (let i = 0; i < 3; i++) await uploadCid(server, server.owner, sharedChunkFile(chunks, [i, (i + 1) % 3], 50 + i));
    clock.advance((GRACE_SECONDS + 1) * 1000);

    let stop = false;
    let cycles = 0;
    let deleted = 0;
    const gcErrors: unknown[] = [];
    const gcLoop = (async () => {
      while (!stop) {
        try {
          deleted += (await runGc(server, server.owner)).blocks_deleted;
          cycles++;
        } catch (error) {
          gcErrors.push(error);
          return;
        }
      }
    })();
    const cycleAfter = (count: number): Promise<true> => until(`GC cycle ${count + 1}`, async () => (cycles > count || gcErrors.length > 0 ? true : undefined));

    // Half-way, with every worker between two steps, the clock moves again: what the workers left
    // unpinned so far (every other file, the directory roots they moved off) becomes old garbage too.
    let arrived = 0;
    const released = deferred();
    const halfWay = async (): Promise<void> => {
      if (++arrived === WORKERS) {
        clock.advance((GRACE_SECONDS + 1) * 1000);
        // A cycle that began after the move has seen that garbage; the workers go on beside the next ones.
        await cycleAfter(cycles + 1);
        released.resolve();
      }
      await released.promise;
    };

    const pinStatus = async (cid: string): Promise<string | undefined> =>
      (await call<{ data: PinRecord }>(server, 'GET', `/api/v0/pin/${cid}`, { key: server.owner })).json.data?.status;
    const worker = async (id: number): Promise<void> => {
      let dir = EMPTY_DIR_V1;
      const files: Record<string, Uint8Array> = {};
      for (let i = 0; i < STEPS; i++) {
        if (i === STEPS / 2) await halfWay();
        const data = sharedChunkFile(chunks, [(id + i) % 3, (id + 2 * i) % 3], 100 + i);
        const cid = await uploadCid(server, server.owner, data);
        contents.set(cid, data);
        expect(await pinAdd(server, server.owner, cid)).toBe(200);
        expect(await pinStatus(cid)).toBe('pinned');
        // Unpin every other one, so GC has work that touches shared leaves.
        if (i % 2 === 1) await call(server, 'POST', '/api/v0/pin/rm', { key: server.owner, query: { arg: cid } });
        const name = `f${i}.bin`;
        const address = await step1(server, server.owner, 'PUT', `/ipfs/${dir}/${name}`, { size: data.byteLength });
        expect(address.status, address.text).toBe(200);
        const added = await step2(address.json.data.url, 'PUT', data);
        expect(added.status, added.text).toBe(201);
        const next = added.headers.get('ipfs-hash') as string;
        // Pin the new root before letting go of the old one, as a folder sync does.
        expect(await pinAdd(server, server.owner, next)).toBe(200);
        expect(await pinStatus(next)).toBe('pinned');
        files[name] = data;
        dirFiles.set(next, { ...files });
        if (dir !== EMPTY_DIR_V1) await call(server, 'POST', '/api/v0/pin/rm', { key: server.owner, query: { arg: dir } });
        dir = next;
      }
    };
    await Promise.all(Array.from({ length: WORKERS }, (_, id) => worker(id)));
    stop = true;
    await gcLoop;
    expect(gcErrors).toEqual([]);
    expect(cycles).toBeGreaterThanOrEqual(2);
    // The old garbage's own blocks (its roots and unique tails) went in the cycles beside the workers.
    expect(deleted).toBeGreaterThanOrEqual(6);
    await runGc(server, server.owner);

    const list = await call<{ data: PinRecord[]; total: number }>(server, 'GET', '/api/v0/pin', {
      key: server.owner,
      query: { status: 'pinned', limit: 1000 },
    });
    let checked = 0;
    for (const pin of list.json.data) {
      const file = contents.get(pin.cid);
      if (file) {
        await expectReadable(server, server.owner, pin.cid, file);
        checked++;
      }
      const tree = dirFiles.get(pin.cid);
      if (tree) {
        for (const [name, data] of Object.entries(tree)) await expectReadable(server, server.owner, `${pin.cid}/${name}`, data);
        checked++;
      }
    }
    // Every worker keeps its 7 even-numbered files and its last directory root pinned.
    expect(checked).toBe(WORKERS * (STEPS / 2 + 1));
  });
});

describe('garbage collection grace (default 600 s)', () => {
  it('fresh unpinned content survives a cycle', async () => {
    const server = await startTestServer();
    try {
      const data = randomData(1000);
      const cid = await uploadCid(server, server.owner, data);
      const result = await runGc(server, server.owner);
      expect(result.blocks_deleted).toBe(0);
      await expectReadable(server, server.owner, cid, data);
    } finally {
      await server.stop();
    }
  });
});

describe('pinfold gc --data DIR', () => {
  it('beside a running server, asks that server through repo/gc (its grace applies)', async () => {
    const server = await startTestServer({ gcGraceSeconds: 0 });
    try {
      const serverFile = JSON.parse(await readFile(join(server.dataDir, 'server.json'), 'utf8')) as { url: string };
      expect(serverFile.url).toBe(server.url);
      const keep = randomData(500);
      const drop = randomData(600);
      const kept = await uploadCid(server, server.owner, keep);
      const dropped = await uploadCid(server, server.owner, drop);
      expect(await pinAdd(server, server.owner, kept)).toBe(200);
      const result = await runCli(['gc', '--data', server.dataDir]);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(new RegExp(`server at ${server.url.replace(/[.]/g, '\\.')}.*0 pins removed, 1 blocks deleted`));
      await expectReadable(server, server.owner, kept, keep);
      expect(await served(server, server.owner, `/ipfs/${dropped}`)).toBeNull();
    } finally {
      await server.stop();
    }
    expect(existsSync(join(server.dataDir, 'server.json'))).toBe(false);
  });

  // In process, without a server: gc-in-process.test.ts (it opens the data folder's SQLite file).

  it('a bad flag is a usage error; a folder without data is an error', async () => {
    const bad = await runCli(['gc', '--data', '/nonexistent-pinfold', '--gc-grace', 'soon']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--gc-grace/);
    const empty = await makeTempDir();
    try {
      const none = await runCli(['gc', '--data', empty]);
      expect(none.code).toBe(1);
      expect(none.stderr).toMatch(/no Pinfold data/);
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });
});
