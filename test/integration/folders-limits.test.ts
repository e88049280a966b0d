import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, createUserKey } from '../helpers/account-api.js';
import { call, makeTempDir, startTestServer, type TestServer } from '../helpers/test-server.js';
import {
  expectNotOperable,
  expectRejected,
  folderOperation,
  importOk,
  operateOk,
  pinAdd,
  pinnedFile,
  pinRecord,
  referenceDirectory,
  snapshot,
  text,
} from './folders-helpers.js';
import { EMPTY_DIR_V1, type Key } from './uploads-helpers.js';

/**
 * pin_new counts against the caller's plan (contract section 8): beyond `pinned_count` or
 * `pinned_bytes` the operation answers 403 naming the limit and changes nothing.
 */
describe('folder operation and plan limits', () => {
  let server: TestServer;
  let dataDir: string;
  let user: Key;
  const files = { a: text('limit a\n'), b: text('limit b b\n') };
  const cids: Record<string, string> = {};
  let root: string;

  beforeAll(async () => {
    dataDir = await makeTempDir('pinfold-folder-limits-');
    // Free: four pins and 4 KiB pinned.
    const free = {
      id: 1,
      name: 'Free',
      price: '0.00',
      pinned_count_limit: 4,
      pinned_bytes_limit: 4096,
      ingress_limit: 1 << 20,
      egress_limit: 1 << 20,
      ipns_limit: 1,
    };
    writeFileSync(join(dataDir, 'plans.json'), JSON.stringify([free]));
    server = await startTestServer({ dataDir });
    const uuid = randomUUID();
    await createUser(server, server.owner, uuid);
    user = await createUserKey(server, server.owner, uuid, 'folders', ['admin']);
    await pinAdd(server, user, EMPTY_DIR_V1);
    await importOk(server, user, EMPTY_DIR_V1);
    cids.a = await pinnedFile(server, user, files.a);
    cids.b = await pinnedFile(server, user, files.b);
    // The fourth and last pin the plan allows.
    root = await operateOk(server, user, { cid: EMPTY_DIR_V1, add: [['a.txt', cids.a]], pin_new: true });
    expect((await snapshot(server, user)).usage.pinned_count).toBe(4);
  });
  afterAll(async () => {
    await server.stop();
    const { rm } = await import('node:fs/promises');
    await rm(dataDir, { recursive: true, force: true });
  });

  it('answers 403 for pin_new beyond pinned_count, with or without unpin_old, and changes nothing', async () => {
    const before = await snapshot(server, user);
    const wouldBe = await referenceDirectory(
      new Map([
        ['a.txt', files.a],
        ['b.txt', files.b],
      ]),
    );
    for (const flags of [{ pin_new: true }, { pin_new: true, unpin_old: true }]) {
      const response = await folderOperation(server, user, { cid: root, add: [['b.txt', cids.b as string]], ...flags });
      await expectRejected(server, user, response, 403, /plan limit reached: pinned_count/, before);
      await expectNotOperable(server, user, wouldBe);
      expect(await pinRecord(server, user, wouldBe)).toBeNull();
      expect((await pinRecord(server, user, root))?.status).toBe('pinned');
    }
    // Without pin_new the same call needs no pin, and succeeds.
    expect(await operateOk(server, user, { cid: root, add: [['b.txt', cids.b as string]] })).toBe(wouldBe);
  });

  it('answers 403 for pin_new beyond pinned_bytes, and changes nothing', async () => {
    // Free two pins (GC drops unpinning pins), then pin a 2,500-byte file: a root holding it would need
    // another ~2.5 KiB, past the 4 KiB the plan allows, while one more pin is still allowed.
    for (const cid of [cids.b as string, root]) expect((await call(server, 'POST', '/api/v0/pin/rm', { key: user, query: { arg: cid } })).status).toBe(200);
    expect((await call(server, 'POST', '/api/v0/repo/gc', { key: server.owner })).status).toBe(200);
    const bigBytes = new Uint8Array(2500).fill(7);
    const big = await pinnedFile(server, user, bigBytes);
    const before = await snapshot(server, user);
    expect(before.usage.pinned_count).toBe(3);
    expect(before.usage.pinned_bytes).toBeLessThanOrEqual(4096);
    expect(before.usage.pinned_bytes + 2500).toBeGreaterThan(4096);

    const wouldBe = await referenceDirectory(new Map([['big.bin', bigBytes]]));
    const response = await folderOperation(server, user, { cid: EMPTY_DIR_V1, add: [['big.bin', big]], pin_new: true });
    await expectRejected(server, user, response, 403, /plan limit reached: pinned_bytes/, before);
    await expectNotOperable(server, user, wouldBe);
    expect(await operateOk(server, user, { cid: EMPTY_DIR_V1, add: [['big.bin', big]] })).toBe(wouldBe);
  });
});
