import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type PinfoldApp } from '../../main/app/create-app.js';
import { testConfig } from '../helpers/test-network.js';
import { createLogger } from '../../main/base/logger.js';
import { expectError } from '../helpers/account-api.js';
import { call, makeTempDir } from '../helpers/test-server.js';
import { suiteDatabase } from '../helpers/suite-database.js';
import { brokenDagJson, brokenDagPb, deepCborLinking, deepJsonLinking, storeInDataFolder, type TestBlock } from '../helpers/unreadable-blocks.js';
import { folderOperation, importOk, operateOk, pinAdd } from './folders-helpers.js';
import { carImport, carV1, counters, EMPTY_DIR_V1, expectNotServed, gatewayGet, stats, uploadCid } from './uploads-helpers.js';
import { ownerKeyOf } from '../helpers/owner-key.js';
import { rawBlock } from '../helpers/raw-blocks.js';

/**
 * Blocks of a linking codec whose links cannot be read (they do not decode, or nest deeper than the 512
 * levels the decoders are trusted with) hide what they link to from every DAG walk. dag/import refuses them
 * (the whole CAR, 400); blocks an earlier version let in make a GC cycle fail before it deletes anything,
 * keep a new pin from counting its DAG complete, and keep a folder operation from letting its old root go.
 */
describe('blocks whose links cannot be read', () => {
  let dataDir: string;
  let app: PinfoldApp;
  let server: { url: string };
  const logged: string[] = [];
  let below: TestBlock;
  let garbage: TestBlock;
  let held: TestBlock;

  async function start(): Promise<void> {
    app = await createApp({
      config: testConfig({ dataDir, port: 0, gcGraceSeconds: 0, ...(await suiteDatabase(dataDir)) }),
      env: {},
      logger: createLogger('info', (line) => logged.push(line)),
    });
    server = { url: await app.listen() };
  }

  beforeAll(async () => {
    dataDir = await makeTempDir();
    below = rawBlock('reached only through a block nobody can read');
    garbage = rawBlock('garbage no pin reaches');
    held = await deepCborLinking(below.cid, 100_000);
    await start();
    await app.close();
    // What an earlier version's dag/import let in.
    await storeInDataFolder(dataDir, [below, garbage, held]);
    await start();
  });
  afterAll(async () => {
    await app.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const pinTotal = async (): Promise<number> => (await call<{ total: number }>(server, 'GET', '/api/v0/pin', { key: ownerKeyOf(app) })).json.total;

  it.each([
    [
      'a dag-cbor block nested 100,000 deep',
      (leaf: TestBlock) => deepCborLinking(leaf.cid, 100_000),
      /cannot be read under its codec: it nests deeper than 512 levels$/,
    ],
    [
      'a dag-json block nested 600 deep',
      (leaf: TestBlock) => deepJsonLinking(leaf.cid, 600),
      /cannot be read under its codec: it nests deeper than 512 levels$/,
    ],
    ['a dag-pb block that does not decode', () => brokenDagPb(), /cannot be read under its codec: .+/],
    ['a dag-json block that does not decode', () => brokenDagJson(), /cannot be read under its codec: .+/],
  ])('dag/import refuses a CAR holding %s: 400 naming the block, nothing stored, pinned or counted', async (_name, make, reason) => {
    const leaf = rawBlock(`a good block beside it ${String(_name)}`);
    const bad = await make(leaf);
    const before = counters(await stats(server, ownerKeyOf(app)));
    const pins = await pinTotal();
    const answer = await carImport(server, ownerKeyOf(app), await carV1([leaf.cid, bad.cid], [leaf, bad]));
    expectError({ ...answer, json: answer.json }, 400, new RegExp(`^car: block ${bad.cid.toString()} ${reason.source}`));
    expect(counters(await stats(server, ownerKeyOf(app)))).toEqual(before);
    expect(await pinTotal()).toBe(pins);
    await expectNotServed(server, ownerKeyOf(app), leaf.cid.toString());
    await expectNotServed(server, ownerKeyOf(app), bad.cid.toString());
  });

  it('a folder operation does not let its old root go while another pin may reach it unseen (409, nothing changed)', async () => {
    const file = await uploadCid(server, ownerKeyOf(app), new TextEncoder().encode('a file in the folder'));
    await pinAdd(server, ownerKeyOf(app), file);
    await pinAdd(server, ownerKeyOf(app), EMPTY_DIR_V1);
    await importOk(server, ownerKeyOf(app), EMPTY_DIR_V1);
    const old = await operateOk(server, ownerKeyOf(app), { cid: EMPTY_DIR_V1, add: [['a.txt', file]], pin_new: true });
    const pin = await call(server, 'POST', '/api/v0/pin/add', { key: ownerKeyOf(app), query: { arg: held.cid.toString() } });
    expect(pin.status, pin.text).toBe(200);
    const pins = await pinTotal();
    const answer = await folderOperation(server, ownerKeyOf(app), { cid: old, add: [['b.txt', file]], pin_new: true, unpin_old: true });
    expectError(
      answer,
      409,
      new RegExp(`^unpin_old: cannot tell whether another pinned DAG still uses ${old}: its block ${held.cid.toString()} cannot be read`),
    );
    expect(await pinTotal()).toBe(pins);
    const oldPin = await call<{ data: { status: string } }>(server, 'GET', `/api/v0/pin/${old}`, { key: ownerKeyOf(app) });
    expect(oldPin.json.data.status).toBe('pinned');
  });

  it('a pin on such a block waits (`pinning`), and GC stops before deleting anything, logging the block', async () => {
    await call(server, 'POST', '/api/v0/pin/add', { key: ownerKeyOf(app), query: { arg: held.cid.toString() } });
    const pin = await call<{ data: { status: string; size: number } }>(server, 'GET', `/api/v0/pin/${held.cid.toString()}`, { key: ownerKeyOf(app) });
    expect(pin.json.data).toMatchObject({ status: 'pinning', size: 0 });
    logged.length = 0;
    const gc = await call(server, 'POST', '/api/v0/repo/gc', { key: ownerKeyOf(app) });
    expect(gc.status, gc.text).toBe(500);
    const line = logged.find((entry) => entry.includes(' error '));
    expect(line).toContain(`block ${held.cid.toString()} under pin ${held.cid.toString()} cannot be read under its codec (it nests deeper than 512 levels)`);
    for (const block of [below, garbage, held]) {
      const served = await gatewayGet(server, ownerKeyOf(app), `/ipfs/${block.cid.toString()}`, { query: { format: 'raw' } });
      expect(served.status, block.cid.toString()).toBe(200);
    }
  });
});
