import { randomUUID } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApp, type PinfoldApp } from '../../main/app/create-app.js';
import { testConfig } from '../helpers/test-network.js';
import { call, makeTempDir } from '../helpers/test-server.js';
import { suiteDatabase } from '../helpers/suite-database.js';
import { createUser, createUserKey, expectError } from '../helpers/account-api.js';
import { addressFor, randomData, stats, step1, step2, type Key } from './uploads-helpers.js';
import { ownerKeyOf } from '../helpers/owner-key.js';

/** Every new account's plan, with an ingress limit a few uploads reach. */
const TINY = {
  id: 1,
  name: 'Tiny',
  price: '0.00',
  pinned_count_limit: 10,
  pinned_bytes_limit: 1_000_000,
  ingress_limit: 50_000,
  egress_limit: 1_000_000,
  ipns_limit: 1,
};

/**
 * Step 1 reserves `size` of the plan's ingress; step 2 settles it (the bytes received count, the
 * reservation goes, success or not); an address never used stops counting when it expires or its key is
 * deleted; a restart keeps reservations (contract section 4).
 */
describe('ingress reservations of upload addresses', () => {
  let dataDir: string;
  let app: PinfoldApp | undefined;
  let offsetMs = 0;
  const clock = { nowMs: () => Date.now() + offsetMs };

  async function start(): Promise<{ url: string }> {
    // The clock moves past an address's 600 s; the test's `ts` stays on real time, so the window is wide.
    app = await createApp({ config: testConfig({ dataDir, port: 0, tsWindowSeconds: 3600, ...(await suiteDatabase(dataDir)) }), env: {}, clock });
    return { url: await app.listen() };
  }

  async function newUser(server: { url: string }, permissions: Array<'admin' | 'write'> = ['admin']): Promise<Key> {
    if (!app) throw new Error('no app');
    const uuid = randomUUID();
    await createUser(server, ownerKeyOf(app), uuid);
    return createUserKey(server, ownerKeyOf(app), uuid, 'key', permissions);
  }

  beforeEach(async () => {
    offsetMs = 0;
    dataDir = await makeTempDir();
    await writeFile(join(dataDir, 'plans.json'), JSON.stringify([TINY]));
  });
  afterEach(async () => {
    await app?.close();
    app = undefined;
    await rm(dataDir, { recursive: true, force: true });
  });

  it('two step-1 calls at once cannot together pass the plan: one address, one 403', async () => {
    const server = await start();
    const user = await newUser(server);
    const answers = await Promise.all([
      step1(server, user, 'POST', '/ipfs/', { size: 30_000 }),
      step1(server, user, 'POST', '/api/v0/dag/import', { size: 30_000, 'pin-roots': 'false' }),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 403]);
    const refused = answers.find((answer) => answer.status === 403);
    expectError(refused as NonNullable<typeof refused>, 403, /^plan limit reached: ingress$/);
    // Stats count bytes received only: nothing yet.
    expect((await stats(server, user)).ingress).toBe(0);
    // What is left beside the reservation is still there.
    expect((await step1(server, user, 'POST', '/ipfs/', { size: 20_000 })).status).toBe(200);
    expectError(await step1(server, user, 'POST', '/ipfs/', { size: 1 }), 403, /ingress/);
  });

  it('step 2 settles: the bytes received count and the reservation goes, whether it succeeds or fails', async () => {
    const server = await start();
    const user = await newUser(server);
    const good = await addressFor(server, user, 'POST', '/ipfs/', { size: 30_000 });
    const short = await addressFor(server, user, 'POST', '/ipfs/', { size: 10_000 });
    const declaredShort = await addressFor(server, user, 'POST', '/ipfs/', { size: 10_000 });
    expectError(await step1(server, user, 'POST', '/ipfs/', { size: 1 }), 403, /ingress/);
    expect((await step2(good, 'POST', randomData(30_000))).status).toBe(201);
    // A chunked body one byte short, found short at its end; one whose Content-Length says so at once.
    // Both refused, nothing counted, their 20,000 bytes free again.
    async function* oneByteShort(): AsyncGenerator<Uint8Array> {
      yield randomData(9_999);
    }
    expect((await step2(short, 'POST', oneByteShort())).status).toBe(400);
    expect((await step2(declaredShort, 'POST', randomData(9_999))).status).toBe(400);
    expect((await stats(server, user)).ingress).toBe(30_000);
    const rest = await addressFor(server, user, 'POST', '/ipfs/', { size: 20_000 });
    expect((await step2(rest, 'POST', randomData(20_000))).status).toBe(201);
    expect((await stats(server, user)).ingress).toBe(50_000);
  });

  it('an address never used stops counting when it expires (server clock)', async () => {
    const server = await start();
    const user = await newUser(server);
    const unused = await addressFor(server, user, 'POST', '/ipfs/', { size: 40_000 });
    expectError(await step1(server, user, 'POST', '/ipfs/', { size: 10_001 }), 403, /ingress/);
    offsetMs = 599_000;
    expectError(await step1(server, user, 'POST', '/ipfs/', { size: 10_001 }), 403, /ingress/);
    offsetMs = 602_000;
    const later = await addressFor(server, user, 'POST', '/ipfs/', { size: 50_000 });
    expect((await step2(unused, 'POST', randomData(40_000))).status).toBe(401);
    expect((await step2(later, 'POST', randomData(50_000))).status).toBe(201);
    expect((await stats(server, user)).ingress).toBe(50_000);
  });

  it('an address stops counting when the key that asked for it is deleted', async () => {
    const server = await start();
    if (!app) throw new Error('no app');
    const uuid = randomUUID();
    await createUser(server, ownerKeyOf(app), uuid);
    const doomed = await createUserKey(server, ownerKeyOf(app), uuid, 'doomed', ['write']);
    const other = await createUserKey(server, ownerKeyOf(app), uuid, 'other', ['write']);
    await addressFor(server, doomed, 'POST', '/ipfs/', { size: 40_000 });
    expectError(await step1(server, other, 'POST', '/ipfs/', { size: 10_001 }), 403, /ingress/);
    const deleted = await call(server, 'DELETE', '/api/v0/partner/user/key', { key: ownerKeyOf(app), body: { uuid, name: 'doomed' } });
    expect(deleted.status).toBe(200);
    expect((await step1(server, other, 'POST', '/ipfs/', { size: 50_000 })).status).toBe(200);
  });

  it('a restart keeps reservations, and the address still works after it', async () => {
    let server = await start();
    const user = await newUser(server);
    const address = await addressFor(server, user, 'POST', '/ipfs/', { size: 40_000 });
    await app?.close();
    server = await start();
    const moved = new URL(address);
    moved.port = new URL(server.url).port;
    expectError(await step1(server, user, 'POST', '/ipfs/', { size: 10_001 }), 403, /ingress/);
    expect((await step2(moved.toString(), 'POST', randomData(40_000))).status).toBe(201);
    expect((await stats(server, user)).ingress).toBe(40_000);
    expect((await step1(server, user, 'POST', '/ipfs/', { size: 10_000 })).status).toBe(200);
  });
});
