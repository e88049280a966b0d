import { randomBytes, randomUUID } from 'node:crypto';
import { CID } from 'multiformats/cid';
import * as raw from 'multiformats/codecs/raw';
import { create as createDigest } from 'multiformats/hashes/digest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PinRecord, PinStatus } from '../../shared/api-types.js';
import { DEFAULTS } from '../../main/base/config.js';
import { call, startTestServer, testClock, type TestServer } from '../helpers/test-server.js';
import { createKey, createUser, createUserKey, expectError } from '../helpers/account-api.js';
import { blockBytes, carImport, carV1, counters, fileDag, MiB, randomData, stats, uploadCid, type Key, type Server } from './uploads-helpers.js';
import { until } from '../helpers/until.js';

async function pinAdd(server: Server, key: Key, cid: string, name?: string) {
  return call(server, 'POST', '/api/v0/pin/add', { key, query: name === undefined ? { arg: cid } : { arg: cid, name } });
}

async function pinRm(server: Server, key: Key, cid: string) {
  return call(server, 'POST', '/api/v0/pin/rm', { key, query: { arg: cid } });
}

async function pinGet(server: Server, key: Key, cid: string) {
  return call<{ code: number; msg: string; data: PinRecord }>(server, 'GET', `/api/v0/pin/${cid}`, { key });
}

async function pinList(server: Server, key: Key, query: Record<string, string | number> = {}) {
  return call<{ code: number; data: PinRecord[]; total: number }>(server, 'GET', '/api/v0/pin', { key, query });
}

async function statusOf(server: Server, key: Key, cid: string): Promise<PinRecord> {
  const response = await pinGet(server, key, cid);
  expect(response.status).toBe(200);
  return response.json.data;
}

async function waitForStatus(server: Server, key: Key, cid: string, status: PinStatus): Promise<PinRecord> {
  return until(`pin ${cid} to be ${status}`, async () => {
    const record = await statusOf(server, key, cid);
    return record.status === status ? record : undefined;
  });
}

describe('pins (contract section 6)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.stop();
  });

  it('pin/add of held content is pinned at once; size counts unique blocks only', async () => {
    // Three identical 1 MiB chunks: the file's DAG is its root plus one distinct leaf.
    const data = new Uint8Array(3 * MiB).fill(7);
    const { root, blocks } = await fileDag(data);
    expect(blocks.length).toBe(2);
    expect(await uploadCid(server, server.owner, data)).toBe(root.toString());
    const before = await stats(server, server.owner);
    const pinnedFrom = Math.floor(Date.now() / 1000);
    const response = await pinAdd(server, server.owner, root.toString(), 'sevens');
    expect(response.status).toBe(200);
    expect(response.json).toEqual({ code: 200, msg: 'ok' });
    const record = await statusOf(server, server.owner, root.toString());
    expect(record).toEqual({ name: 'sevens', cid: root.toString(), status: 'pinned', size: blockBytes(blocks), created_at: expect.any(Number) });
    expect(record.created_at).toBeGreaterThanOrEqual(pinnedFrom);
    expect(record.created_at).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    const after = await stats(server, server.owner);
    expect(after.pinned_count - before.pinned_count).toBe(1);
    expect(after.pinned_bytes - before.pinned_bytes).toBe(blockBytes(blocks));
  });

  it('pin/add again is a no-op that may rename; counters do not move', async () => {
    const cid = await uploadCid(server, server.owner, randomData(1234));
    expect((await pinAdd(server, server.owner, cid, 'first')).status).toBe(200);
    const before = await stats(server, server.owner);
    const created = (await statusOf(server, server.owner, cid)).created_at;
    expect((await pinAdd(server, server.owner, cid)).status).toBe(200);
    expect(await statusOf(server, server.owner, cid)).toMatchObject({ name: 'first', status: 'pinned', size: 1234, created_at: created });
    expect((await pinAdd(server, server.owner, cid, 'second')).status).toBe(200);
    expect(await statusOf(server, server.owner, cid)).toMatchObject({ name: 'second', status: 'pinned', size: 1234 });
    expect(counters(await stats(server, server.owner))).toEqual(counters(before));
  });

  it('pin/add of a DAG with missing blocks is pinning, then pinned once a later CAR import brings them', async () => {
    const data = randomData(2 * MiB + 10);
    const { root, blocks } = await fileDag(data);
    const rootBlock = blocks.find((block) => block.cid.equals(root));
    if (!rootBlock) throw new Error('no root block');
    const leaves = blocks.filter((block) => !block.cid.equals(root));
    // Only the root node arrives first.
    expect((await carImport(server, server.owner, await carV1([root], [rootBlock]), { pinRoots: false })).status).toBe(200);
    const before = await stats(server, server.owner);
    expect((await pinAdd(server, server.owner, root.toString(), 'partial')).status).toBe(200);
    expect(await statusOf(server, server.owner, root.toString())).toMatchObject({ status: 'pinning', size: 0 });
    const pinning = await stats(server, server.owner);
    expect(pinning.pinned_count - before.pinned_count).toBe(1);
    expect(pinning.pinned_bytes).toBe(before.pinned_bytes);

    const [first, ...rest] = leaves;
    expect(
      (await carImport(server, server.owner, await carV1([(first as { cid: typeof root }).cid], [first as (typeof blocks)[0]]), { pinRoots: false })).status,
    ).toBe(200);
    // One leaf is still missing: it stays pinning.
    expect((await statusOf(server, server.owner, root.toString())).status).toBe('pinning');
    expect((await carImport(server, server.owner, await carV1([(rest[0] as { cid: typeof root }).cid], rest), { pinRoots: false })).status).toBe(200);
    const record = await waitForStatus(server, server.owner, root.toString(), 'pinned');
    expect(record.size).toBe(blockBytes(blocks));
    expect((await stats(server, server.owner)).pinned_bytes - before.pinned_bytes).toBe(blockBytes(blocks));
  });

  it('pin/add of content not held at all completes when an upload brings it', async () => {
    const data = randomData(4096);
    const { root } = await fileDag(data);
    expect((await pinAdd(server, server.owner, root.toString())).status).toBe(200);
    expect((await statusOf(server, server.owner, root.toString())).status).toBe('pinning');
    expect(await uploadCid(server, server.owner, data)).toBe(root.toString());
    expect((await waitForStatus(server, server.owner, root.toString(), 'pinned')).size).toBe(4096);
  });

  it('pin/rm turns the pin unpinning (still counted) and the next GC removes it and releases the counters', async () => {
    const cid = await uploadCid(server, server.owner, randomData(5000));
    expect((await pinAdd(server, server.owner, cid)).status).toBe(200);
    const pinned = await stats(server, server.owner);
    const response = await pinRm(server, server.owner, cid);
    expect(response.status).toBe(200);
    expect(response.json).toEqual({ code: 200, msg: 'ok' });
    expect(await statusOf(server, server.owner, cid)).toMatchObject({ status: 'unpinning', size: 5000 });
    expect(counters(await stats(server, server.owner))).toEqual(counters(pinned));
    const unpinning = await pinList(server, server.owner, { status: 'unpinning' });
    expect(unpinning.json.data.map((pin) => pin.cid)).toContain(cid);

    const gc = await call<{ code: number; data: { pins_removed: number; blocks_deleted: number } }>(server, 'POST', '/api/v0/repo/gc', { key: server.owner });
    expect(gc.status).toBe(200);
    expect(gc.json.data.pins_removed).toBeGreaterThanOrEqual(1);
    expect((await pinGet(server, server.owner, cid)).status).toBe(404);
    const after = await stats(server, server.owner);
    expect(after.pinned_count).toBe(pinned.pinned_count - 1);
    expect(after.pinned_bytes).toBe(pinned.pinned_bytes - 5000);
    // pin/add during unpinning takes the pin back instead.
    const again = await uploadCid(server, server.owner, randomData(300));
    expect((await pinAdd(server, server.owner, again)).status).toBe(200);
    expect((await pinRm(server, server.owner, again)).status).toBe(200);
    expect((await pinAdd(server, server.owner, again)).status).toBe(200);
    expect((await statusOf(server, server.owner, again)).status).toBe('pinned');
  });

  it('pin/rm of an unknown CID is 404, of a malformed one 400; nothing changes', async () => {
    const before = await stats(server, server.owner);
    expectError(await pinRm(server, server.owner, 'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy'), 404, /bafkreigh2ak/);
    expectError(await pinRm(server, server.owner, 'not-a-cid'), 400, /arg/);
    expectError(await call(server, 'POST', '/api/v0/pin/rm', { key: server.owner }), 400, /arg/);
    expectError(await pinAdd(server, server.owner, 'not-a-cid'), 400, /arg/);
    expectError(await call(server, 'POST', '/api/v0/pin/add', { key: server.owner }), 400, /arg/);
    expect(counters(await stats(server, server.owner))).toEqual(counters(before));
  });

  it('pin/add needs pin permission, pin/rm unpin, the account list admin', async () => {
    const cid = await uploadCid(server, server.owner, randomData(10));
    const reader = await createKey(server, server.owner, 'pin-reader', ['read', 'write']);
    expectError(await pinAdd(server, reader, cid), 403, /pin/);
    expect((await pinGet(server, server.owner, cid)).status).toBe(404);
    const pinner = await createKey(server, server.owner, 'pin-pinner', ['pin']);
    expect((await pinAdd(server, pinner, cid)).status).toBe(200);
    expectError(await pinRm(server, pinner, cid), 403, /unpin/);
    expectError(await pinList(server, pinner), 403, /admin/);
    const unpinner = await createKey(server, server.owner, 'pin-unpinner', ['unpin']);
    expect((await pinRm(server, unpinner, cid)).status).toBe(200);
  });
});

/** A raw-leaf CID whose multihash is `code` with a `length`-byte digest: no block Pinfold can verify hashes to it. */
function cidWithHash(code: number, length: number): string {
  return CID.createV1(raw.code, createDigest(code, randomBytes(length))).toString();
}

describe('pins only on what Pinfold can verify, pinned only when whole (contract section 6)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.stop();
  });

  it('pin/add, and name/create or name/publish with pin=true, of a CID whose hash Pinfold cannot verify: 400, nothing changes', async () => {
    const held = await uploadCid(server, server.owner, randomData(64));
    const name = (await call<{ data: { name: string } }>(server, 'POST', '/api/v0/name/create', { key: server.owner, query: { arg: held } })).json.data.name;
    const before = counters(await stats(server, server.owner));
    const pinsBefore = (await pinList(server, server.owner, { limit: 1000 })).json;
    const unverifiable = {
      blake3: cidWithHash(0x1e, 32),
      'keccak-256': cidWithHash(0x1b, 32),
      'sha2-256 cut to 20 bytes': cidWithHash(0x12, 20),
    };
    for (const [what, cid] of Object.entries(unverifiable)) {
      expectError(await pinAdd(server, server.owner, cid), 400, new RegExp(`^arg: ${cid} uses multihash function 0x`));
      expect((await pinGet(server, server.owner, cid)).status, what).toBe(404);
      const created = await call(server, 'POST', '/api/v0/name/create', { key: server.owner, query: { arg: cid, pin: true } });
      expectError(created, 400, /^arg: .*cannot verify$/);
      const published = await call(server, 'POST', '/api/v0/name/publish', { key: server.owner, query: { key: name, arg: cid, pin: true } });
      expectError(published, 400, /^arg: .*cannot verify$/);
    }
    expect(counters(await stats(server, server.owner))).toEqual(before);
    expect((await pinList(server, server.owner, { limit: 1000 })).json).toEqual(pinsBefore);
    const names = await call<{ total: number; data: { name: string; value: string }[] }>(server, 'GET', '/api/v0/ipns', { key: server.owner });
    expect(names.json.data).toEqual([expect.objectContaining({ name, value: held })]);
    // An identity CID carries its block itself (nothing stored): pinned at once.
    const identity = CID.createV1(raw.code, createDigest(0x00, Buffer.from('inline'))).toString();
    expect((await pinAdd(server, server.owner, identity)).status).toBe(200);
    expect(await statusOf(server, server.owner, identity)).toMatchObject({ status: 'pinned', size: 0 });
  });

  it('pin/add of an `unpinning` pin whose blocks are not held turns it `pinning`, not `pinned`; it completes when they come', async () => {
    const data = randomData(3000);
    const { root } = await fileDag(data);
    const cid = root.toString();
    const before = counters(await stats(server, server.owner));
    expect((await pinAdd(server, server.owner, cid, 'never-held')).status).toBe(200);
    expect(await statusOf(server, server.owner, cid)).toMatchObject({ status: 'pinning', size: 0 });
    expect((await pinRm(server, server.owner, cid)).status).toBe(200);
    expect((await statusOf(server, server.owner, cid)).status).toBe('unpinning');
    expect((await pinAdd(server, server.owner, cid)).status).toBe(200);
    expect(await statusOf(server, server.owner, cid)).toMatchObject({ name: 'never-held', status: 'pinning', size: 0 });
    expect(counters(await stats(server, server.owner))).toEqual({ ...before, pinned_count: before.pinned_count + 1 });

    expect(await uploadCid(server, server.owner, data)).toBe(cid);
    expect((await waitForStatus(server, server.owner, cid, 'pinned')).size).toBe(3000);
    const after = counters(await stats(server, server.owner));
    expect(after.pinned_count - before.pinned_count).toBe(1);
    expect(after.pinned_bytes - before.pinned_bytes).toBe(3000);
  });

  it('pin/add of an `unpinning` pin whose DAG is whole again is `pinned` at its real size; counters stay exact', async () => {
    const data = randomData(2 * MiB + 5);
    const { root, blocks } = await fileDag(data);
    const cid = root.toString();
    const before = counters(await stats(server, server.owner));
    expect((await pinAdd(server, server.owner, cid)).status).toBe(200);
    expect((await pinRm(server, server.owner, cid)).status).toBe(200);
    // The blocks arrive while the pin is on its way out: taking it back pins the whole DAG.
    expect(await uploadCid(server, server.owner, data)).toBe(cid);
    expect((await statusOf(server, server.owner, cid)).status).toBe('unpinning');
    expect((await pinAdd(server, server.owner, cid)).status).toBe(200);
    expect(await statusOf(server, server.owner, cid)).toMatchObject({ status: 'pinned', size: blockBytes(blocks) });
    const after = counters(await stats(server, server.owner));
    expect(after.pinned_count - before.pinned_count).toBe(1);
    expect(after.pinned_bytes - before.pinned_bytes).toBe(blockBytes(blocks));
  });
});

describe('pin timeout', () => {
  let server: TestServer;
  // The deadline passes when the test moves the clock, not while a slow machine answers two requests.
  const clock = testClock();
  beforeAll(async () => {
    server = await startTestServer({ tsWindowSeconds: 24 * 3600 }, {}, clock);
  });
  afterAll(async () => {
    await server.stop();
  });

  it('a pin whose blocks never arrive turns failure after the timeout; pin/add after the blocks came pins it', async () => {
    const data = randomData(777);
    const { root } = await fileDag(data);
    expect((await pinAdd(server, server.owner, root.toString(), 'late')).status).toBe(200);
    expect((await statusOf(server, server.owner, root.toString())).status).toBe('pinning');
    clock.advance((DEFAULTS.pinTimeoutSeconds - 1) * 1000);
    // Blocks arriving make the pending pins be looked at again; this upload brings none of the pin's.
    await uploadCid(server, server.owner, randomData(10));
    expect((await statusOf(server, server.owner, root.toString())).status).toBe('pinning');
    clock.advance(2000);
    await uploadCid(server, server.owner, randomData(11));
    const failed = await waitForStatus(server, server.owner, root.toString(), 'failure');
    expect(failed).toMatchObject({ name: 'late', size: 0 });
    expect((await stats(server, server.owner)).pinned_bytes).toBe(0);
    const failures = await pinList(server, server.owner, { status: 'failure' });
    expect(failures.json.total).toBe(1);

    expect(await uploadCid(server, server.owner, data)).toBe(root.toString());
    // A failed pin stays failed when blocks arrive; asking again pins it.
    expect((await statusOf(server, server.owner, root.toString())).status).toBe('failure');
    expect((await pinAdd(server, server.owner, root.toString())).status).toBe(200);
    expect(await statusOf(server, server.owner, root.toString())).toMatchObject({ status: 'pinned', size: 777 });
    expect((await stats(server, server.owner)).pinned_bytes).toBe(777);
  });
});

describe('account pin list, get and rename', () => {
  let server: TestServer;
  let user: Key;
  const cids: string[] = [];
  beforeAll(async () => {
    server = await startTestServer();
    const uuid = randomUUID();
    await createUser(server, server.owner, uuid);
    user = await createUserKey(server, server.owner, uuid, 'admin', ['admin']);
    // Five pins, oldest first; the last two never get their blocks (pinning).
    for (let i = 0; i < 3; i++) {
      const cid = await uploadCid(server, user, randomData(100 + i));
      expect((await pinAdd(server, user, cid, `pin-${i}`)).status).toBe(200);
      cids.push(cid);
    }
    for (let i = 3; i < 5; i++) {
      const { root } = await fileDag(randomData(100 + i));
      expect((await pinAdd(server, user, root.toString(), `pin-${i}`)).status).toBe(200);
      cids.push(root.toString());
    }
  });
  afterAll(async () => {
    await server.stop();
  });

  it('lists newest first, with total, default limit 10', async () => {
    const response = await pinList(server, user);
    expect(response.status).toBe(200);
    expect(Object.keys(response.json).sort()).toEqual(['code', 'data', 'total']);
    expect(response.json.total).toBe(5);
    expect(response.json.data.map((pin) => pin.cid)).toEqual([...cids].reverse());
    expect(response.json.data.map((pin) => pin.name)).toEqual(['pin-4', 'pin-3', 'pin-2', 'pin-1', 'pin-0']);
    for (const pin of response.json.data) expect(Object.keys(pin).sort()).toEqual(['cid', 'created_at', 'name', 'size', 'status']);
    // The owner's list does not show the user's pins.
    expect((await pinList(server, server.owner)).json.total).toBe(0);
  });

  it('pages with limit and start; total counts the whole match', async () => {
    const pages: string[] = [];
    for (let start = 0; start < 6; start += 2) {
      const page = await pinList(server, user, { limit: 2, start });
      expect(page.status).toBe(200);
      expect(page.json.total).toBe(5);
      expect(page.json.data.length).toBe(Math.min(2, 5 - start));
      pages.push(...page.json.data.map((pin) => pin.cid));
    }
    expect(pages).toEqual([...cids].reverse());
    const past = await pinList(server, user, { limit: 10, start: 50 });
    expect(past.json).toEqual({ code: 200, data: [], total: 5 });
    expect((await pinList(server, user, { limit: 1000 })).json.data.length).toBe(5);
  });

  it('filters by status', async () => {
    const pinned = await pinList(server, user, { status: 'pinned' });
    expect(pinned.json.total).toBe(3);
    expect(pinned.json.data.map((pin) => pin.cid)).toEqual(cids.slice(0, 3).reverse());
    const pinning = await pinList(server, user, { status: 'pinning', limit: 1 });
    expect(pinning.json.total).toBe(2);
    expect(pinning.json.data.map((pin) => pin.cid)).toEqual([cids[4]]);
    expect((await pinList(server, user, { status: 'failure' })).json).toEqual({ code: 200, data: [], total: 0 });
  });

  it('bad limit, start or status is 400', async () => {
    for (const limit of ['0', '1001', '-1', 'abc', '1.5']) expectError(await pinList(server, user, { limit }), 400, /limit/);
    for (const start of ['-1', 'abc']) expectError(await pinList(server, user, { start }), 400, /start/);
    expectError(await pinList(server, user, { status: 'done' }), 400, /status/);
  });

  it('pin get answers the record; unknown 404, malformed 400', async () => {
    const response = await pinGet(server, user, cids[0] as string);
    expect(response.status).toBe(200);
    expect(response.json.data).toMatchObject({ cid: cids[0], name: 'pin-0', status: 'pinned', size: 100 });
    expectError(await pinGet(server, user, 'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy'), 404, /bafkreigh2ak/);
    expectError(await pinGet(server, user, 'zzz'), 400, /cid/);
    // Another account's pin is unknown here.
    const own = await uploadCid(server, server.owner, randomData(33));
    expect((await pinAdd(server, server.owner, own)).status).toBe(200);
    expect((await pinGet(server, user, own)).status).toBe(404);
  });

  it('pin rename changes the name only; unknown CID 404', async () => {
    const before = await statusOf(server, user, cids[1] as string);
    const response = await call(server, 'POST', '/api/v0/pin/rename', { key: user, body: { cid: cids[1], name: 'renamed' } });
    expect(response.status).toBe(200);
    expect(await statusOf(server, user, cids[1] as string)).toEqual({ ...before, name: 'renamed' });
    expectError(
      await call(server, 'POST', '/api/v0/pin/rename', { key: user, body: { cid: 'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy', name: 'x' } }),
      404,
      /bafkreigh2ak/,
    );
    expectError(await call(server, 'POST', '/api/v0/pin/rename', { key: user, body: { cid: 42, name: 'x' } }), 400, /cid/);
    expect((await statusOf(server, user, cids[1] as string)).name).toBe('renamed');
  });
});
