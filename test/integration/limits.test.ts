import { randomUUID } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PinRecord } from '../../shared/api-types.js';
import { call, makeTempDir, startTestServer, type TestServer } from '../helpers/test-server.js';
import { createUser, createUserKey, expectError } from '../helpers/account-api.js';
import {
  carImport,
  carV1,
  counters,
  EMPTY_DIR_V1,
  expectNotServed,
  fileDag,
  gatewayGet,
  randomData,
  referenceCid,
  stats,
  step1,
  uploadCid,
  uploadFile,
  type Key,
} from './uploads-helpers.js';

/** Plan 1 (every new account's) with tiny limits, so each counter can be reached with a few KiB. */
const TINY = {
  id: 1,
  name: 'Tiny',
  price: '0.00',
  pinned_count_limit: 2,
  pinned_bytes_limit: 10_000,
  ingress_limit: 50_000,
  egress_limit: 20_000,
  ipns_limit: 1,
};

describe('plan limits (contract sections 3, 8): 403 naming the limit, nothing changed', () => {
  let server: TestServer;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await makeTempDir();
    await writeFile(join(dataDir, 'plans.json'), JSON.stringify([TINY]));
    server = await startTestServer({ dataDir });
  });
  afterAll(async () => {
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  async function newUser(): Promise<Key> {
    const uuid = randomUUID();
    await createUser(server, server.owner, uuid);
    return createUserKey(server, server.owner, uuid, 'admin', ['admin']);
  }

  async function pinCount(key: Key): Promise<number> {
    return (await call<{ total: number }>(server, 'GET', '/api/v0/pin', { key })).json.total;
  }

  it('ingress: step 1 is checked against size, for uploads, DAG add and CAR import', async () => {
    const user = await newUser();
    const first = randomData(30_000);
    expect((await uploadFile(server, user, first)).status).toBe(201);
    const before = await stats(server, user);
    expect(before.ingress).toBe(30_000);
    expectError(await step1(server, user, 'POST', '/ipfs/', { size: 20_001 }), 403, /^plan limit reached: ingress$/, 'plan_limit');
    expectError(await step1(server, user, 'PUT', `/ipfs/${EMPTY_DIR_V1}/a.txt`, { size: 20_001 }), 403, /^plan limit reached: ingress$/, 'plan_limit');
    expectError(
      await step1(server, user, 'POST', '/api/v0/dag/import', { size: 20_001, 'pin-roots': 'false' }),
      403,
      /^plan limit reached: ingress$/,
      'plan_limit',
    );
    expect(counters(await stats(server, user))).toEqual(counters(before));
    // Exactly what is left is fine.
    const last = randomData(20_000);
    expect((await uploadFile(server, user, last)).status).toBe(201);
    expect((await stats(server, user)).ingress).toBe(50_000);
    expectError(await step1(server, user, 'POST', '/ipfs/', { size: 1 }), 403, /ingress/);
    await expectNotServed(server, user, await referenceCid(randomData(1)));
    // The owner (plan Local) is not limited by the user's plan.
    expect((await step1(server, server.owner, 'POST', '/ipfs/', { size: 100_000 })).status).toBe(200);
  });

  it('pinned_count: the pin past the limit is refused and not recorded', async () => {
    const user = await newUser();
    const cids = [];
    for (let i = 0; i < 3; i++) cids.push(await uploadCid(server, user, randomData(100 + i)));
    for (const cid of cids.slice(0, 2)) expect((await call(server, 'POST', '/api/v0/pin/add', { key: user, query: { arg: cid } })).status).toBe(200);
    const before = await stats(server, user);
    expect(before.pinned_count).toBe(2);
    expectError(
      await call(server, 'POST', '/api/v0/pin/add', { key: user, query: { arg: cids[2] as string } }),
      403,
      /^plan limit reached: pinned_count$/,
      'plan_limit',
    );
    expect(counters(await stats(server, user))).toEqual(counters(before));
    expect(await pinCount(user)).toBe(2);
    expect((await call(server, 'GET', `/api/v0/pin/${cids[2] as string}`, { key: user })).status).toBe(404);
    // Re-adding an existing pin is no change, so it is allowed at the limit.
    expect((await call(server, 'POST', '/api/v0/pin/add', { key: user, query: { arg: cids[0] as string, name: 'again' } })).status).toBe(200);
    // A CAR import still stores its blocks, and reports the root's pin error.
    const dag = await fileDag(randomData(200));
    const imported = await carImport(server, user, await carV1([dag.root], dag.blocks));
    expect(imported.status).toBe(200);
    expect(imported.json).toMatchObject({ Roots: [{ Cid: { '/': dag.root.toString() }, PinErrorMsg: 'plan limit reached: pinned_count' }] });
    expect(await pinCount(user)).toBe(2);
    expect((await stats(server, user)).pinned_count).toBe(2);
  });

  it('pinned_bytes: a pin whose DAG passes the limit is refused; a pending one fails when its blocks come', async () => {
    const user = await newUser();
    const small = await uploadCid(server, user, randomData(6_000));
    const large = await uploadCid(server, user, randomData(4_001));
    expect((await call(server, 'POST', '/api/v0/pin/add', { key: user, query: { arg: small } })).status).toBe(200);
    const before = await stats(server, user);
    expectError(await call(server, 'POST', '/api/v0/pin/add', { key: user, query: { arg: large } }), 403, /^plan limit reached: pinned_bytes$/, 'plan_limit');
    expect(counters(await stats(server, user))).toEqual(counters(before));
    expect(await pinCount(user)).toBe(1);

    // Pinned before its blocks exist, the size is unknown; when they arrive over the limit it fails.
    const pendingData = randomData(4_500);
    const pending = (await fileDag(pendingData)).root.toString();
    expect((await call(server, 'POST', '/api/v0/pin/add', { key: user, query: { arg: pending } })).status).toBe(200);
    expect(await uploadCid(server, user, pendingData)).toBe(pending);
    const deadline = Date.now() + 20_000;
    let record: PinRecord | undefined;
    while (Date.now() < deadline) {
      record = (await call<{ data: PinRecord }>(server, 'GET', `/api/v0/pin/${pending}`, { key: user })).json.data;
      if (record.status !== 'pinning') break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(record?.status).toBe('failure');
    expect((await stats(server, user)).pinned_bytes).toBe(6_000);
  });

  it('egress: a response that would pass the limit is refused before any byte; counted bytes are exact', async () => {
    const user = await newUser();
    const twelve = randomData(12_000);
    const cid = await uploadCid(server, user, twelve);
    const first = await gatewayGet(server, user, `/ipfs/${cid}`);
    expect(first.status).toBe(200);
    expect(first.bytes.byteLength).toBe(12_000);
    const before = await stats(server, user);
    expect(before.egress).toBe(12_000);
    const refused = await gatewayGet(server, user, `/ipfs/${cid}`);
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.bytes.toString('utf8'))).toEqual({ code: 403, msg: 'plan limit reached: egress', error: 'plan_limit', limit: 'egress' });
    expect(refused.headers.get('cache-control')).toBeNull();
    expect(counters(await stats(server, user))).toEqual(counters(before));
    // A range that fits is still served, and counted.
    const ranged = await gatewayGet(server, user, `/ipfs/${cid}`, { headers: { Range: 'bytes=0-7999' } });
    expect(ranged.status).toBe(206);
    expect((await stats(server, user)).egress).toBe(20_000);
    expect((await gatewayGet(server, user, `/ipfs/${cid}`, { headers: { Range: 'bytes=0-0' } })).status).toBe(403);
  });
});
