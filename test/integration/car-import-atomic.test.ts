import { randomUUID } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PinRecord } from '../../shared/api-types.js';
import { serverSql } from '../helpers/suite-metadata.js';
import { call, makeTempDir, startTestServer, type TestServer } from '../helpers/test-server.js';
import { createUser, createUserKey } from '../helpers/account-api.js';
import { blockBytes, carImport, carV1, counters, expectNotServed, fileDag, gatewayGet, randomData, stats, type CarImportAnswer } from './uploads-helpers.js';

/**
 * A CAR import's blocks, its ingress and its root pins land in one transaction (contract section 4): a
 * failure between them leaves none, and a retry counts the ingress once. The failure is a real one, raised
 * by the database itself (SQLite or PostgreSQL): a trigger, added beside the running server, refuses the
 * second root's pin row.
 */
describe('CAR import: blocks, ingress and root pins together or not at all', () => {
  let server: TestServer;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await makeTempDir();
    // New accounts' plan: small enough that one CAR passes pinned_bytes.
    const plan = {
      id: 1,
      name: 'Tiny',
      price: '0.00',
      pinned_count_limit: 5,
      pinned_bytes_limit: 2_000,
      ingress_limit: 1_000_000,
      egress_limit: 1_000_000,
      ipns_limit: 1,
    };
    await writeFile(join(dataDir, 'plans.json'), JSON.stringify([plan]));
    server = await startTestServer({ dataDir });
  });
  afterAll(async () => {
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  async function pinOf(cid: string, key = server.owner): Promise<{ status: number; record?: PinRecord }> {
    const response = await call<{ data: PinRecord }>(server, 'GET', `/api/v0/pin/${cid}`, { key });
    return { status: response.status, record: response.status === 200 ? response.json.data : undefined };
  }

  it('a failure while writing the second root pin leaves no block, no pin and no ingress; the retry counts once', async () => {
    const first = await fileDag(randomData(4000));
    const second = await fileDag(randomData(5000));
    const blocks = [...first.blocks, ...second.blocks];
    const car = await carV1([first.root, second.root], blocks);
    const secondRoot = second.root.toString();
    await serverSql(server, {
      sqlite: `CREATE TRIGGER refuse_second_root BEFORE INSERT ON pins WHEN NEW.cid = '${secondRoot}'
               BEGIN SELECT RAISE(ABORT, 'injected failure'); END`,
      postgres: `CREATE FUNCTION refuse_second_root() RETURNS trigger LANGUAGE plpgsql AS $$
                 BEGIN RAISE EXCEPTION 'injected failure'; END $$;
                 CREATE TRIGGER refuse_second_root BEFORE INSERT ON pins FOR EACH ROW
                 WHEN (NEW.cid = '${secondRoot}') EXECUTE FUNCTION refuse_second_root()`,
    });
    const before = counters(await stats(server, server.owner));
    try {
      const failed = await carImport(server, server.owner, car);
      expect(failed.status).toBe(500);
      expect(failed.json).toEqual({ code: 500, msg: 'internal error', error: 'internal' });
    } finally {
      await serverSql(server, {
        sqlite: 'DROP TRIGGER refuse_second_root',
        postgres: 'DROP TRIGGER refuse_second_root ON pins; DROP FUNCTION refuse_second_root()',
      });
    }
    expect(counters(await stats(server, server.owner))).toEqual(before);
    expect((await pinOf(first.root.toString())).status).toBe(404);
    expect((await pinOf(second.root.toString())).status).toBe(404);
    for (const block of blocks) await expectNotServed(server, server.owner, block.cid.toString());

    const retried = await carImport(server, server.owner, car);
    expect(retried.status).toBe(200);
    expect((retried.json as CarImportAnswer).Roots.map((root) => root.PinErrorMsg)).toEqual(['', '']);
    const after = await stats(server, server.owner);
    expect(after.ingress - before.ingress).toBe(car.byteLength);
    expect(after.pinned_count - before.pinned_count).toBe(2);
    expect(after.pinned_bytes - before.pinned_bytes).toBe(blockBytes(first.blocks) + blockBytes(second.blocks));
    expect((await pinOf(first.root.toString())).record).toMatchObject({ status: 'pinned', size: blockBytes(first.blocks) });
    expect((await pinOf(second.root.toString())).record).toMatchObject({ status: 'pinned', size: blockBytes(second.blocks) });
    expect((await gatewayGet(server, server.owner, `/ipfs/${second.root.toString()}`)).status).toBe(200);
  });

  it('a root whose DAG passes pinned_bytes is reported and left unpinned; the rest of the import stands', async () => {
    const uuid = randomUUID();
    await createUser(server, server.owner, uuid);
    const user = await createUserKey(server, server.owner, uuid, 'importer', ['admin']);
    const small = await fileDag(randomData(1000));
    const large = await fileDag(randomData(3000));
    const car = await carV1([small.root, large.root], [...small.blocks, ...large.blocks]);
    const answer = await carImport(server, user, car);
    expect(answer.status).toBe(200);
    expect((answer.json as CarImportAnswer).Roots).toEqual([
      { Cid: { '/': small.root.toString() }, PinErrorMsg: '' },
      { Cid: { '/': large.root.toString() }, PinErrorMsg: 'plan limit reached: pinned_bytes' },
    ]);
    expect((await pinOf(small.root.toString(), user)).record).toMatchObject({ status: 'pinned', size: 1000 });
    expect((await pinOf(large.root.toString(), user)).status).toBe(404);
    const after = await stats(server, user);
    expect(after).toMatchObject({ pinned_count: 1, pinned_bytes: 1000, ingress: car.byteLength });
    expect((await gatewayGet(server, user, `/ipfs/${large.root.toString()}`)).status).toBe(200);
  });
});
