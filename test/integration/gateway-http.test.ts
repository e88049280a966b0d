import * as dagCbor from '@ipld/dag-cbor';
import * as dagJson from '@ipld/dag-json';
import * as dagPb from '@ipld/dag-pb';
import { CID } from 'multiformats/cid';
import { sha256 } from 'multiformats/hashes/sha2';
import * as raw from 'multiformats/codecs/raw';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestServer, type TestServer } from '../helpers/test-server.js';
import { createKey, expectError } from '../helpers/account-api.js';
import { carImport, carV1, dagAdd, EMPTY_DIR_V1, fileDag, gatewayGet, MiB, randomData, stats, uploadCid } from './uploads-helpers.js';

function b64(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64').replace(/=+$/, '');
}

describe('GET /api/v0/dag/get (contract section 5)', () => {
  let server: TestServer;
  const blocks: Record<string, { cid: CID; bytes: Uint8Array }> = {};
  beforeAll(async () => {
    server = await startTestServer();
    const rawBytes = randomData(40);
    const rawCid = CID.createV1(raw.code, await sha256.digest(rawBytes));
    const noData = dagPb.encode({ Links: [{ Hash: rawCid, Name: 'r', Tsize: 40 }] });
    const cbor = dagCbor.encode({ hello: 'world', n: 3, link: rawCid, bytes: new Uint8Array([1, 2, 3]) });
    const json = dagJson.encode({ a: [1, 2], link: rawCid });
    const list = [
      { name: 'raw', cid: rawCid, bytes: rawBytes },
      { name: 'noData', cid: CID.createV1(dagPb.code, await sha256.digest(noData)), bytes: noData },
      { name: 'cbor', cid: CID.createV1(dagCbor.code, await sha256.digest(cbor)), bytes: cbor },
      { name: 'json', cid: CID.createV1(dagJson.code, await sha256.digest(json)), bytes: json },
    ];
    for (const block of list) blocks[block.name] = block;
    const car = await carV1(
      list.map((block) => block.cid),
      list,
    );
    expect((await carImport(server, server.owner, car, { pinRoots: false })).status).toBe(200);
  });
  afterAll(async () => {
    await server.stop();
  });

  async function dagGet(arg: string) {
    return call<Record<string, unknown>>(server, 'GET', '/api/v0/dag/get', { key: server.owner, query: { arg } });
  }

  it('a UnixFS directory: Data as base64 bytes, Links with Hash, Name, Tsize; not wrapped in the envelope', async () => {
    const content = new TextEncoder().encode('hi\n');
    const root = (await dagAdd(server, server.owner, EMPTY_DIR_V1, 'hi.txt', content)).headers.get('ipfs-hash') as string;
    const response = await dagGet(root);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const fileCid = (await fileDag(content)).root.toString();
    expect(response.json).toEqual({ Data: { '/': { bytes: 'CAE' } }, Links: [{ Hash: { '/': fileCid }, Name: 'hi.txt', Tsize: 3 }] });
  });

  it('a multi-block UnixFS file node: its Data bytes and every chunk link', async () => {
    const data = randomData(2 * MiB + 1);
    const cid = await uploadCid(server, server.owner, data);
    const { blocks: dagBlocks, root } = await fileDag(data);
    const rootBlock = dagBlocks.find((block) => block.cid.equals(root));
    const node = dagPb.decode(rootBlock?.bytes as Uint8Array);
    const response = await dagGet(cid);
    expect(response.status).toBe(200);
    expect(response.json).toEqual({
      Data: { '/': { bytes: b64(node.Data as Uint8Array) } },
      Links: node.Links.map((link) => ({ Hash: { '/': link.Hash.toString() }, Name: link.Name, Tsize: link.Tsize })),
    });
    expect((response.json.Links as unknown[]).length).toBe(3);
    expect(response.text).not.toMatch(/=/);
  });

  it('a dag-pb node without Data omits it; Links are always there', async () => {
    const response = await dagGet(blocks.noData?.cid.toString() as string);
    expect(response.status).toBe(200);
    expect(response.json).toEqual({ Links: [{ Hash: { '/': blocks.raw?.cid.toString() }, Name: 'r', Tsize: 40 }] });
  });

  it('raw, dag-cbor and dag-json nodes give their dag-json view', async () => {
    const rawBlock = blocks.raw as { cid: CID; bytes: Uint8Array };
    expect((await dagGet(rawBlock.cid.toString())).json).toEqual({ '/': { bytes: b64(rawBlock.bytes) } });
    const cbor = await dagGet(blocks.cbor?.cid.toString() as string);
    expect(cbor.status).toBe(200);
    expect(cbor.json).toEqual({ bytes: { '/': { bytes: 'AQID' } }, hello: 'world', link: { '/': rawBlock.cid.toString() }, n: 3 });
    const json = await dagGet(blocks.json?.cid.toString() as string);
    expect(json.text).toBe(new TextDecoder().decode(blocks.json?.bytes));
    // An identity CID carries its own bytes ("hello\n").
    expect((await dagGet('bafkqabtimvwgy3yk')).json).toEqual({ '/': { bytes: 'aGVsbG8K' } });
    // The always-available empty directory.
    expect((await dagGet('QmUNLLsPACCz1vLxQVkXqqLX5R1X345qqfHbsf67hvA3Nn')).json).toEqual({ Data: { '/': { bytes: 'CAE' } }, Links: [] });
  });

  it('bad arg 400, unknown CID 404, read permission needed', async () => {
    expectError(await call(server, 'GET', '/api/v0/dag/get', { key: server.owner }), 400, /arg/);
    expectError(await dagGet('not-a-cid'), 400, /arg/);
    expectError(await dagGet('bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy'), 404, /bafkreigh2ak/);
    const writer = await createKey(server, server.owner, 'dag-writer', ['write']);
    expectError(await call(server, 'GET', '/api/v0/dag/get', { key: writer, query: { arg: 'bafkqabtimvwgy3yk' } }), 403, /read/);
  });
});

describe('gateway over HTTP: egress counting and bad requests', () => {
  let server: TestServer;
  let cid: string;
  const data = randomData(3000);
  beforeAll(async () => {
    server = await startTestServer();
    cid = await uploadCid(server, server.owner, data);
  });
  afterAll(async () => {
    await server.stop();
  });

  async function egressOf(fn: () => Promise<unknown>): Promise<number> {
    const before = (await stats(server, server.owner)).egress;
    await fn();
    return (await stats(server, server.owner)).egress - before;
  }

  it('GET counts the body bytes sent; HEAD counts none; a Range counts its bytes', async () => {
    expect(
      await egressOf(async () => {
        const response = await gatewayGet(server, server.owner, `/ipfs/${cid}`);
        expect(response.status).toBe(200);
        expect(Buffer.compare(response.bytes, Buffer.from(data))).toBe(0);
        expect(response.headers.get('etag')).toBe(`"${cid}"`);
        expect(response.headers.get('cache-control')).toBe('public, max-age=29030400, immutable');
        expect(response.headers.get('x-ipfs-path')).toBe(`/ipfs/${cid}`);
      }),
    ).toBe(3000);
    expect(
      await egressOf(async () => {
        const response = await gatewayGet(server, server.owner, `/ipfs/${cid}`, { method: 'HEAD' });
        expect(response.status).toBe(200);
        expect(response.headers.get('content-length')).toBe('3000');
      }),
    ).toBe(0);
    expect(
      await egressOf(async () => {
        const response = await gatewayGet(server, server.owner, `/ipfs/${cid}`, { headers: { Range: 'bytes=100-199' } });
        expect(response.status).toBe(206);
        expect(response.headers.get('content-range')).toBe('bytes 100-199/3000');
        expect(Buffer.compare(response.bytes, Buffer.from(data.subarray(100, 200)))).toBe(0);
      }),
    ).toBe(100);
    expect(await egressOf(async () => expect((await gatewayGet(server, server.owner, `/ipfs/${cid}`, { query: { format: 'raw' } })).status).toBe(200))).toBe(
      3000,
    );
  });

  it('a Range past the end is 416 and counts nothing; unknown CID 404; malformed CID 400; no credentials 401', async () => {
    expect(
      await egressOf(async () => {
        const response = await gatewayGet(server, server.owner, `/ipfs/${cid}`, { headers: { Range: 'bytes=5000-6000' } });
        expect(response.status).toBe(416);
        expect(response.headers.get('content-range')).toBe('bytes */3000');
      }),
    ).toBe(0);
    expect(
      await egressOf(async () => {
        expect((await gatewayGet(server, server.owner, '/ipfs/bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy')).status).toBe(404);
        expect((await gatewayGet(server, server.owner, '/ipfs/not-a-cid')).status).toBe(400);
        const badFormat = await gatewayGet(server, server.owner, `/ipfs/${cid}`, { query: { format: 'nope' } });
        expect(badFormat.status).toBe(400);
        expect(JSON.parse(badFormat.bytes.toString('utf8'))).toMatchObject({
          msg: 'format: "nope" is not one of raw, car, tar, dag-json, dag-cbor, json, cbor, ipns-record',
          param: 'format',
        });
        expect((await gatewayGet(server, server.owner, `/ipfs/${cid}/no/such/path`)).status).toBe(404);
      }),
    ).toBe(0);
    const anonymous = await fetch(`${server.url}/ipfs/${cid}?ts=${Math.floor(Date.now() / 1000)}`);
    expect(anonymous.status).toBe(401);
  });

  it('Range: bytes=999999999- on a 1,400-byte file is 416 with Content-Range bytes */1400, the envelope, no body headers, no egress', async () => {
    const small = await uploadCid(server, server.owner, randomData(1400));
    for (const range of ['bytes=999999999-', 'bytes=1400-']) {
      expect(
        await egressOf(async () => {
          const response = await gatewayGet(server, server.owner, `/ipfs/${small}`, { headers: { Range: range } });
          expect(response.status, range).toBe(416);
          expect(response.headers.get('content-range')).toBe('bytes */1400');
          expect(response.headers.get('content-type')).toMatch(/^application\/json/);
          expect(JSON.parse(response.bytes.toString('utf8'))).toEqual({ code: 416, msg: 'range: not satisfiable for 1400 bytes', error: 'range' });
          for (const name of ['cache-control', 'etag', 'content-disposition', 'accept-ranges']) expect(response.headers.get(name), name).toBeNull();
        }),
      ).toBe(0);
    }
    const last = await gatewayGet(server, server.owner, `/ipfs/${small}`, { headers: { Range: 'bytes=1399-' } });
    expect(last.status).toBe(206);
    expect(last.headers.get('content-range')).toBe('bytes 1399-1399/1400');
    expect(last.bytes.byteLength).toBe(1);
  });

  it('egress is charged to the account of the reading key (a read-only key of the owner)', async () => {
    const reader = await createKey(server, server.owner, 'gw-reader', ['read']);
    expect(await egressOf(async () => expect((await gatewayGet(server, reader, `/ipfs/${cid}`)).status).toBe(200))).toBe(3000);
  });
});
