import { rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import * as dagCbor from '@ipld/dag-cbor';
import * as dagJson from '@ipld/dag-json';
import { CID } from 'multiformats/cid';
import * as json from 'multiformats/codecs/json';
import { sha256 } from 'multiformats/hashes/sha2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../helpers/account-api.js';
import { call, makeTempDir, nowTs, startTestServer, type TestServer } from '../helpers/test-server.js';
import { storeInDataFolder, type TestBlock } from '../helpers/unreadable-blocks.js';
import { carImport, carV1, gatewayGet } from './uploads-helpers.js';
import { cborArrays, jsonArrays } from '../helpers/nested-arrays.js';

const CBOR_CODE = 0x51;
const DEEP = 100_000;

/**
 * Deeply nested JSON in content: a dag-json, json, dag-cbor or cbor block of 100,000 nested arrays (valid
 * under its codec, 100-200 KB) made dag/get and the gateway's HTML preview overflow the stack (500) and cut
 * CAR exports. Contract section 3: malformed input of any kind is a 4xx. json and cbor blocks still come in
 * by dag/import; dag-json and dag-cbor ones deeper than 512 levels are refused there now (GC could not
 * follow their links), so here they are what an earlier version left in the data folder.
 */
describe('blocks nested 100,000 deep', () => {
  let server: TestServer;
  let dataDir: string;
  const blocks: Record<string, { cid: CID; bytes: Uint8Array }> = {};

  beforeAll(async () => {
    dataDir = await makeTempDir();
    const list: Array<[string, number, Uint8Array]> = [
      ['dag-json', dagJson.code, jsonArrays(DEEP)],
      ['json', json.code, jsonArrays(DEEP)],
      ['dag-cbor', dagCbor.code, cborArrays(DEEP)],
      ['cbor', CBOR_CODE, cborArrays(DEEP)],
      ['dag-cbor 500 deep', dagCbor.code, cborArrays(500)],
    ];
    for (const [name, code, bytes] of list) blocks[name] = { cid: CID.createV1(code, await sha256.digest(bytes)), bytes };
    const earlier = await startTestServer({ dataDir });
    await earlier.stop();
    await storeInDataFolder(dataDir, [blocks['dag-json'], blocks['dag-cbor']] as TestBlock[]);
    server = await startTestServer({ dataDir });
    const imported = [blocks.json, blocks.cbor, blocks['dag-cbor 500 deep']] as TestBlock[];
    const answer = await carImport(
      server,
      server.owner,
      await carV1(
        imported.map((block) => block.cid),
        imported,
      ),
      { pinRoots: false },
    );
    expect(answer.status, answer.text).toBe(200);
  });
  afterAll(async () => {
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  function asCall(response: { status: number; headers: Headers; bytes: Buffer }) {
    const text = response.bytes.toString('utf8');
    return { status: response.status, headers: response.headers, text, json: JSON.parse(text) as unknown };
  }

  /** Whether a GET body arrived whole (node:http: a cut-short body resolves instead of failing). */
  function bodyComplete(path: string, query: Record<string, string>): Promise<{ status: number; complete: boolean }> {
    const target = new URL(server.url);
    const search = new URLSearchParams({ ts: String(nowTs()), ...query });
    const headers = { 'X-Access-Key': server.owner.access_key, 'X-Access-Secret': server.owner.access_secret };
    return new Promise((resolve, reject) => {
      const req = httpRequest({ host: target.hostname, port: target.port, path: `${path}?${search.toString()}`, headers }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, complete: true }));
        res.on('aborted', () => resolve({ status: res.statusCode ?? 0, complete: false }));
        res.on('error', () => resolve({ status: res.statusCode ?? 0, complete: false }));
      });
      req.on('error', reject);
      req.end();
    });
  }

  it.each(['json', 'dag-cbor', 'cbor'])('%s: dag/get and the HTML preview are 406 naming the block; raw bytes are still served', async (name) => {
    const { cid, bytes } = blocks[name] as { cid: CID; bytes: Uint8Array };
    const message = new RegExp(`${cid.toString()} nests deeper than 512 levels`);
    expectError(await call(server, 'GET', '/api/v0/dag/get', { key: server.owner, query: { arg: cid.toString() } }), 406, message);
    expectError(asCall(await gatewayGet(server, server.owner, `/ipfs/${cid.toString()}/`, { headers: { Accept: 'text/html' } })), 406, message);
    const raw = await gatewayGet(server, server.owner, `/ipfs/${cid.toString()}`, { query: { format: 'raw' } });
    expect(raw.status).toBe(200);
    expect(Buffer.compare(raw.bytes, Buffer.from(bytes))).toBe(0);
  });

  it('dag-json is its own dag-json view: dag/get and the preview send it without decoding it', async () => {
    const { cid, bytes } = blocks['dag-json'] as { cid: CID; bytes: Uint8Array };
    const view = await call(server, 'GET', '/api/v0/dag/get', { key: server.owner, query: { arg: cid.toString() } });
    expect(view.status).toBe(200);
    expect(view.text).toBe(new TextDecoder().decode(bytes));
    expect((await gatewayGet(server, server.owner, `/ipfs/${cid.toString()}/`, { headers: { Accept: 'text/html' } })).status).toBe(200);
  });

  it.each(['dag-json', 'dag-cbor'])('%s: a CAR of it sends the block, then ends short instead of following links it cannot read', async (name) => {
    const { cid } = blocks[name] as { cid: CID };
    expect(await bodyComplete(`/ipfs/${cid.toString()}`, { format: 'car' })).toEqual({ status: 200, complete: false });
  });

  it.each(['dag-json', 'dag-cbor'])('%s: a path into it is 406 naming the block', async (name) => {
    const { cid } = blocks[name] as { cid: CID };
    const message = new RegExp(`path: cannot look inside ${cid.toString()}, it nests deeper than 512 levels`);
    expectError(asCall(await gatewayGet(server, server.owner, `/ipfs/${cid.toString()}/0/0`)), 406, message);
  });

  it('500 levels is within what is decoded: dag/get and the preview answer it', async () => {
    const { cid } = blocks['dag-cbor 500 deep'] as { cid: CID };
    const view = await call(server, 'GET', '/api/v0/dag/get', { key: server.owner, query: { arg: cid.toString() } });
    expect(view.status).toBe(200);
    expect(view.text).toBe('['.repeat(500) + ']'.repeat(500));
    expect((await gatewayGet(server, server.owner, `/ipfs/${cid.toString()}/`, { headers: { Accept: 'text/html' } })).status).toBe(200);
    expect(await bodyComplete(`/ipfs/${cid.toString()}`, { format: 'car' })).toEqual({ status: 200, complete: true });
  });
});
