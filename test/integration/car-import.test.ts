import * as dagCbor from '@ipld/dag-cbor';
import { CID } from 'multiformats/cid';
import { sha256 } from 'multiformats/hashes/sha2';
import * as raw from 'multiformats/codecs/raw';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PinRecord } from '../../shared/api-types.js';
import { call, startTestServer, type TestServer } from '../helpers/test-server.js';
import { createKey, expectError } from '../helpers/account-api.js';
import {
  addressFor,
  blockBytes,
  carImport,
  carV1,
  carV2,
  counters,
  expectNotServed,
  fileDag,
  gatewayGet,
  MiB,
  randomData,
  stats,
  step1,
  step2,
  uploadCid,
  type Block,
  type CarImportAnswer,
} from './uploads-helpers.js';

describe('CAR import: POST /api/v0/dag/import (contract section 4)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.stop();
  });

  async function pinOf(cid: string): Promise<{ status: number; record?: PinRecord }> {
    const response = await call<{ data: PinRecord }>(server, 'GET', `/api/v0/pin/${cid}`, { key: server.owner });
    return { status: response.status, record: response.status === 200 ? response.json.data : undefined };
  }

  async function pinTotal(): Promise<number> {
    const response = await call<{ total: number }>(server, 'GET', '/api/v0/pin', { key: server.owner });
    expect(response.status).toBe(200);
    return response.json.total;
  }

  async function expectServedFile(root: CID, bytes: Uint8Array): Promise<void> {
    const response = await gatewayGet(server, server.owner, `/ipfs/${root.toString()}`);
    expect(response.status).toBe(200);
    expect(Buffer.compare(response.bytes, Buffer.from(bytes))).toBe(0);
  }

  it.each(['v1', 'v2'])('CAR%s: 200 with Roots and Stats, blocks served, root pinned with its DAG size, ingress = CAR bytes', async (version) => {
    const data = randomData(2 * MiB + 100);
    const { root, blocks } = await fileDag(data);
    const v1 = await carV1([root], blocks);
    const car = version === 'v2' ? carV2(v1) : v1;
    const before = await stats(server, server.owner);
    const response = await carImport(server, server.owner, car);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.json).toEqual({
      Roots: [{ Cid: { '/': root.toString() }, PinErrorMsg: '' }],
      Stats: { BlockCount: blocks.length, BlockBytesCount: blockBytes(blocks) },
    } satisfies CarImportAnswer);
    await expectServedFile(root, data);
    const pin = await pinOf(root.toString());
    expect(pin.record).toMatchObject({ cid: root.toString(), status: 'pinned', size: blockBytes(blocks) });
    const after = await stats(server, server.owner);
    expect(after.ingress - before.ingress).toBe(car.byteLength);
    expect(after.pinned_count - before.pinned_count).toBe(1);
    expect(after.pinned_bytes - before.pinned_bytes).toBe(blockBytes(blocks));
  });

  it('a multipart form with a `file` part works too', async () => {
    const data = randomData(5000);
    const { root, blocks } = await fileDag(data);
    const car = await carV1([root], blocks);
    const url = await addressFor(server, server.owner, 'POST', '/api/v0/dag/import', { size: car.byteLength });
    const form = new FormData();
    form.append('file', new Blob([car]), 'x.car');
    const response = await step2(url, 'POST', form);
    expect(response.status).toBe(200);
    expect((response.json as CarImportAnswer).Roots[0]?.Cid['/']).toBe(root.toString());
    await expectServedFile(root, data);
  });

  it('Stats count every block section, duplicates included; blocks outside the roots’ DAG are stored too', async () => {
    const data = randomData(300);
    const { root, blocks } = await fileDag(data);
    const strayBytes = randomData(77);
    const stray = CID.createV1(raw.code, await sha256.digest(strayBytes));
    const sections: Block[] = [...blocks, ...blocks, { cid: stray, bytes: strayBytes }];
    const response = await carImport(server, server.owner, await carV1([root], sections), { pinRoots: false });
    expect(response.status).toBe(200);
    expect((response.json as CarImportAnswer).Stats).toEqual({ BlockCount: sections.length, BlockBytesCount: blockBytes(sections) });
    const served = await gatewayGet(server, server.owner, `/ipfs/${stray.toString()}`, { query: { format: 'raw' } });
    expect(served.status).toBe(200);
    expect(Buffer.compare(served.bytes, Buffer.from(strayBytes))).toBe(0);
  });

  it('pin-roots=false pins nothing, and its step 1 needs write only; pinning roots needs pin as well', async () => {
    const writer = await createKey(server, server.owner, 'car-writer', ['write', 'read']);
    const data = randomData(1000);
    const { root, blocks } = await fileDag(data);
    const car = await carV1([root], blocks);
    expectError(await step1(server, writer, 'POST', '/api/v0/dag/import', { size: car.byteLength }), 403, /pin/);
    const before = await stats(server, server.owner);
    const response = await carImport(server, writer, car, { pinRoots: false });
    expect(response.status).toBe(200);
    expect((response.json as CarImportAnswer).Roots).toEqual([{ Cid: { '/': root.toString() }, PinErrorMsg: '' }]);
    expect((await pinOf(root.toString())).status).toBe(404);
    const after = await stats(server, server.owner);
    expect(after.pinned_count).toBe(before.pinned_count);
    expect(after.ingress - before.ingress).toBe(car.byteLength);
    await expectServedFile(root, data);

    const pinner = await createKey(server, server.owner, 'car-pinner', ['write', 'pin']);
    const other = await fileDag(randomData(1001));
    const pinned = await carImport(server, pinner, await carV1([other.root], other.blocks));
    expect(pinned.status).toBe(200);
    expect((await pinOf(other.root.toString())).record?.status).toBe('pinned');
  });

  it('a root not in the CAR but already stored is accepted', async () => {
    const data = randomData(64);
    const stored = CID.parse(await uploadCid(server, server.owner, data));
    const extraBytes = randomData(50);
    const extra = CID.createV1(raw.code, await sha256.digest(extraBytes));
    const response = await carImport(server, server.owner, await carV1([stored], [{ cid: extra, bytes: extraBytes }]));
    expect(response.status).toBe(200);
    expect((await pinOf(stored.toString())).record?.status).toBe('pinned');
  });

  it('dag-cbor roots import and pin (links of every codec count in the pin’s size)', async () => {
    const leafBytes = randomData(200);
    const leaf = CID.createV1(raw.code, await sha256.digest(leafBytes));
    const nodeBytes = dagCbor.encode({ name: 'node', leaf });
    const node = CID.createV1(dagCbor.code, await sha256.digest(nodeBytes));
    const response = await carImport(
      server,
      server.owner,
      await carV1(
        [node],
        [
          { cid: node, bytes: nodeBytes },
          { cid: leaf, bytes: leafBytes },
        ],
      ),
    );
    expect(response.status).toBe(200);
    expect((await pinOf(node.toString())).record).toMatchObject({ status: 'pinned', size: nodeBytes.byteLength + leafBytes.byteLength });
  });

  it('many mid-sized blocks (verified on the hash workers through reused memory) are all stored under their own CIDs', async () => {
    // 48 raw blocks of 300 KiB: more than the hash arena's slots, so slots are reused within one import.
    const blocks: Block[] = [];
    for (let i = 0; i < 48; i++) {
      const bytes = randomData(300 * 1024);
      blocks.push({ cid: CID.createV1(raw.code, await sha256.digest(bytes)), bytes });
    }
    const response = await carImport(server, server.owner, await carV1([(blocks[0] as Block).cid], blocks), { pinRoots: false });
    expect(response.status).toBe(200);
    for (const block of blocks) {
      const served = await gatewayGet(server, server.owner, `/ipfs/${block.cid.toString()}`, { query: { format: 'raw' } });
      expect(served.status, block.cid.toString()).toBe(200);
      expect(Buffer.compare(served.bytes, Buffer.from(block.bytes)), block.cid.toString()).toBe(0);
    }
  });

  describe('bad CARs are rejected whole: 400, no block stored, no pin, no counter moved', () => {
    async function expectRejected(car: Uint8Array, blocks: Block[], msg: RegExp): Promise<void> {
      const before = await stats(server, server.owner);
      const pinsBefore = await pinTotal();
      const response = await carImport(server, server.owner, car);
      expect(response.status).toBe(400);
      expect(response.json).toMatchObject({ code: 400, msg: expect.stringMatching(msg) });
      expect(counters(await stats(server, server.owner))).toEqual(counters(before));
      expect(await pinTotal()).toBe(pinsBefore);
      for (const block of blocks) await expectNotServed(server, server.owner, block.cid.toString());
    }

    it('a truncated CAR (v1 and v2, cut inside a block and inside the header)', async () => {
      const { root, blocks } = await fileDag(randomData(MiB + 5000));
      const v1 = await carV1([root], blocks);
      await expectRejected(v1.subarray(0, v1.byteLength - 100), blocks, /car|truncated|unexpected end/i);
      await expectRejected(v1.subarray(0, 20), blocks, /car|truncated|unexpected end|header/i);
      const v2 = carV2(v1);
      await expectRejected(v2.subarray(0, v2.byteLength - 1), blocks, /car|truncated|unexpected end/i);
      await expectRejected(v2.subarray(0, 30), blocks, /car|truncated|unexpected end|header/i);
    });

    it('a block whose bytes do not match its CID', async () => {
      const { root, blocks } = await fileDag(randomData(MiB + 10));
      const tampered = blocks.map((block) => ({ cid: block.cid, bytes: block.bytes.slice() }));
      const victim = tampered[0] as Block;
      victim.bytes[victim.bytes.byteLength - 1] = (victim.bytes[victim.bytes.byteLength - 1] as number) ^ 0xff;
      await expectRejected(await carV1([root], tampered), blocks, /hash|match|cid/i);
    });

    it('a CAR whose root is neither in it nor stored', async () => {
      const { root, blocks } = await fileDag(randomData(MiB + 20));
      const rootless = blocks.filter((block) => !block.cid.equals(root));
      await expectRejected(await carV1([root], rootless), rootless, /root/);
      await expectRejected(carV2(await carV1([root], rootless)), rootless, /root/);
    });

    it('garbage that is no CAR at all, and a CAR with a bad version', async () => {
      await expectRejected(randomData(1000), [], /car|header|version/i);
      const { root, blocks } = await fileDag(randomData(100));
      const v1 = await carV1([root], blocks);
      const v2 = carV2(v1);
      v2[10] = 3; // pragma version 3
      await expectRejected(v2, blocks, /car|version/i);
    });
  });
});
