import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/test-server.js';
import { startServe, type ServeProcess } from '../helpers/serve-process.js';
import { deferred } from '../helpers/deferred.js';
import { openUpload, packsReach, packsSettleAt } from './packs-helpers.js';
import { addressFor, carImport, carV1, counters, fileDag, gatewayGet, MiB, randomData, stats, step2, type Block, type Key } from './uploads-helpers.js';
import { packBytes } from '../helpers/pack-files.js';

/** Bytes a block takes in a pack: the block and its record header (u16 length, multihash, u32 length). */
function recordBytes(blocks: readonly Block[]): number {
  return blocks.reduce((sum, block) => sum + 6 + block.cid.multihash.bytes.byteLength + block.bytes.byteLength, 0);
}

/** A body sent in two parts, the second only once `release` is called: the test decides what lands when. */
function gatedBody(first: Uint8Array, second: Uint8Array): { body: AsyncIterable<Uint8Array>; release: () => void } {
  const gate = deferred();
  return {
    body: (async function* () {
      yield first;
      await gate.promise;
      yield second;
    })(),
    release: gate.resolve,
  };
}

/** A CAR whose last block does not match its CID, after `good` valid blocks of 1 MiB. */
async function carWithBadBlock(good: number): Promise<Uint8Array> {
  const { root, blocks } = await fileDag(randomData(good * MiB));
  const tampered = blocks.map((block) => ({ cid: block.cid, bytes: block.bytes.slice() }));
  const victim = tampered[tampered.length - 1] as Block;
  victim.bytes[0] = (victim.bytes[0] ?? 0) ^ 0xff;
  return carV1([root], tampered);
}

describe('rejected step 2s give their pack space back (contract section 4: "the space it used is reclaimed")', () => {
  let server: TestServer;
  let dataDir: string;
  let owner: Key;
  beforeAll(async () => {
    dataDir = await makeTempDir();
    server = await startTestServer({ dataDir });
    owner = server.owner;
  });
  afterAll(async () => {
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('bodies one byte short, one after another: 400, and the packs are back where they were without any GC', async () => {
    const baseline = await packBytes(join(dataDir, 'blocks'));
    const before = await stats(server, owner);
    const body = randomData(10 * MiB);
    for (let i = 0; i < 3; i++) {
      const url = await addressFor(server, owner, 'POST', '/ipfs/', { size: body.byteLength });
      const response = await step2(url, 'POST', body.subarray(0, body.byteLength - 1));
      expect(response.status).toBe(400);
      await packsSettleAt(dataDir, baseline);
    }
    expect(counters(await stats(server, owner))).toEqual(counters(before));
  });

  it('short bodies, a CAR with a bad block and a client that disconnects mid-body, all at once: the packs end where they began', async () => {
    const baseline = await packBytes(join(dataDir, 'blocks'));
    // The client that will disconnect gets part of its body into the pack first (the importer writes a
    // chunk once six more are hashed: 12 MiB sent puts at least 5 MiB there).
    const leaving = openUpload(await addressFor(server, owner, 'POST', '/ipfs/', { size: 16 * MiB }), { declared: 16 * MiB, sent: 12 * MiB });
    await packsReach(dataDir, baseline + 5 * MiB);
    const body = randomData(10 * MiB);
    const short = Array.from({ length: 3 }, async () => {
      const url = await addressFor(server, owner, 'POST', '/ipfs/', { size: body.byteLength });
      return (await step2(url, 'POST', body.subarray(0, body.byteLength - 1))).status;
    });
    const badCar = carWithBadBlock(8).then(async (car) => (await carImport(server, owner, car)).status);
    await leaving.drop();
    expect(await Promise.all(short)).toEqual([400, 400, 400]);
    expect(await badCar).toBe(400);
    await packsSettleAt(dataDir, baseline);
  });

  it('committed uploads beside rejected ones read back whole, and a restart gives back the dead space between them', async () => {
    const baseline = await packBytes(join(dataDir, 'blocks'));
    // Rejected uploads start first and reach the pack before the committed ones do: the importer writes
    // a chunk once six more are hashed, so 9 MiB sent puts at least 3 MiB of each in the pack.
    const declared = 10 * MiB;
    const rejected = Array.from({ length: 3 }, () => gatedBody(randomData(9 * MiB), randomData(MiB - 1)));
    const rejectedAnswers = rejected.map(async ({ body }) => {
      const url = await addressFor(server, owner, 'POST', '/ipfs/', { size: declared });
      return (await step2(url, 'POST', body)).status;
    });
    await packsReach(dataDir, baseline + 3 * 3 * MiB);

    const files = [randomData(3 * MiB + 5), randomData(2 * MiB)];
    const committed = await Promise.all(
      files.map(async (bytes) => {
        const url = await addressFor(server, owner, 'POST', '/ipfs/', { size: bytes.byteLength });
        const response = await step2(url, 'POST', bytes);
        expect(response.status).toBe(201);
        return response.headers.get('ipfs-hash') as string;
      }),
    );
    for (const { release } of rejected) release();
    expect(await Promise.all(rejectedAnswers)).toEqual([400, 400, 400]);

    const dags = await Promise.all(files.map(async (bytes) => fileDag(bytes)));
    const live = dags.reduce((sum, dag) => sum + recordBytes(dag.blocks), 0);
    // The rejected records before the committed ones cannot be cut off while the pack is appended to.
    expect(await packBytes(join(dataDir, 'blocks'))).toBeGreaterThan(baseline + live);
    for (const [i, cid] of committed.entries()) {
      const served = await gatewayGet(server, owner, `/ipfs/${cid}`);
      expect(served.status).toBe(200);
      expect(served.bytes.equals(files[i] as Uint8Array)).toBe(true);
    }

    // A restart (no GC) seals the pack and rewrites it: only the live records stay.
    await server.app.close();
    server = await startTestServer({ dataDir });
    await packsSettleAt(dataDir, baseline + live);
    for (const [i, cid] of committed.entries()) {
      const served = await gatewayGet(server, owner, `/ipfs/${cid}`);
      expect(served.bytes.equals(files[i] as Uint8Array)).toBe(true);
    }
  });
});

describe('an upload killed with the server (kill -9) is given back at the next start', () => {
  const children: ServeProcess[] = [];
  let dataDir = '';
  afterEach(async () => {
    for (const proc of children.splice(0)) {
      if (proc.child.exitCode === null && proc.child.signalCode === null) {
        proc.child.kill('SIGKILL');
        await proc.exited();
      }
    }
    if (dataDir !== '') await rm(dataDir, { recursive: true, force: true });
  });

  it('kill -9 mid step 2, then restart: the packs hold exactly what they held before the upload, and committed content reads back', async () => {
    dataDir = await makeTempDir('pinfold-kill-');
    const first = startServe(['--data', dataDir, '--port', '0']);
    children.push(first);
    const url = await first.listening();
    const owner = JSON.parse(readFileSync(join(dataDir, 'owner-key.json'), 'utf8')) as Key;
    const server = { url };
    // More committed bytes than the killed upload leaves: its pack is then mostly live, and only cutting
    // the pack back to its last indexed record (not a compaction) gives the dead tail back.
    const kept = randomData(14 * MiB + 3);
    const keptUrl = await addressFor(server, owner, 'POST', '/ipfs/', { size: kept.byteLength });
    const keptAnswer = await step2(keptUrl, 'POST', kept);
    expect(keptAnswer.status).toBe(201);
    const keptCid = keptAnswer.headers.get('ipfs-hash') as string;
    const baseline = await packBytes(join(dataDir, 'blocks'));

    const uploadUrl = await addressFor(server, owner, 'POST', '/ipfs/', { size: 32 * MiB });
    const { body } = gatedBody(randomData(16 * MiB), new Uint8Array(0));
    const killed = step2(uploadUrl, 'POST', body).then(
      (response) => response.status,
      () => 'connection lost',
    );
    await packsReach(dataDir, baseline + 8 * MiB);
    first.child.kill('SIGKILL');
    expect(await first.exited()).toBeNull();
    expect(await killed).toBe('connection lost');
    expect(await packBytes(join(dataDir, 'blocks'))).toBeGreaterThanOrEqual(baseline + 8 * MiB);

    const second = startServe(['--data', dataDir, '--port', '0']);
    children.push(second);
    const url2 = await second.listening();
    await packsSettleAt(dataDir, baseline);
    const served = await gatewayGet({ url: url2 }, owner, `/ipfs/${keptCid}`);
    expect(served.status).toBe(200);
    expect(served.bytes.equals(kept)).toBe(true);
    second.child.kill('SIGTERM');
    expect(await second.exited()).toBe(0);
  });
});
