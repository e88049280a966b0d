import { readFile } from 'node:fs/promises';
import { CID } from 'multiformats/cid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GC, fixturePath, storeFromCars } from '../../content/read/fixture-store.js';
import { startGateway, type Harness } from './gateway-harness.js';

const ROOT = 'bafybeig6ka5mlwkl4subqhaiatalkcleo4jgnr3hqwvpmsqfca27cijp3i';
const FILE = 'bafkreialihlqnf5uwo4byh4n3cmwlntwqzxxs2fg5vanqdi3d7tb2l5xkm';
const WITH_INDEX = 'bafybeib3ffl2teiqdncv3mkz4r23b5ctrwkzrrhctdbne6iboayxuxk5ui';
const JSONROOT = 'baguqeeram5ujjqrwheyaty3w5gdsmoz6vittchvhk723jjqxk7hakxkd47xq';
const CBORROOT = 'bafyreibs4utpgbn7uqegmd2goqz4bkyflre2ek2iwv743fhvylwi4zeeim';
const MISSING = 'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy';
const NAME = 'k51qzi5uqu5dlkw8pxuw9qmqayfdeh4kfebhmreauqdc6a7c3y7d5i9fi8mk9w';
const PEER_ID = '12D3KooWRL2ppK37M2ih6xGfufWVa15jqAcgeQ8ZvoAUJFAfbueZ';

let gw: Harness;

beforeAll(async () => {
  const record = await readFile(fixturePath(`${GC}ipns_records/${NAME}_v1-v2.ipns-record`));
  const store = await storeFromCars(
    `${GC}dir_listing/fixtures.car`,
    `${GC}gateway-cache/fixtures.car`,
    `${GC}path_gateway_dag/dag-json-traversal.car`,
    `${GC}path_gateway_dag/dag-cbor-traversal.car`,
  );
  gw = await startGateway(store, { names: { [NAME]: { cid: CID.parse(ROOT), path: [], ttlSeconds: 60, record } } });
});

afterAll(async () => {
  await gw.close();
});

/** [what, path, request headers, method, expected status] */
type Case = [string, string, Record<string, string>, string, number];

const cases: Case[] = [
  ['file', `/ipfs/${FILE}`, {}, 'GET', 200],
  ['file, HEAD', `/ipfs/${FILE}`, {}, 'HEAD', 200],
  ['byte range', `/ipfs/${FILE}`, { range: 'bytes=0-3' }, 'GET', 206],
  ['range past the end', `/ipfs/${FILE}`, { range: 'bytes=999-' }, 'GET', 416],
  ['not modified', `/ipfs/${FILE}`, { 'if-none-match': `"${FILE}"` }, 'GET', 304],
  ['directory without its slash', `/ipfs/${ROOT}`, {}, 'GET', 301],
  ['generated listing', `/ipfs/${ROOT}/`, {}, 'GET', 200],
  ['generated listing, HEAD', `/ipfs/${ROOT}/`, {}, 'HEAD', 200],
  ['index.html of a directory', `/ipfs/${WITH_INDEX}/root2/root3/root4/`, {}, 'GET', 200],
  ['raw block', `/ipfs/${ROOT}?format=raw`, {}, 'GET', 200],
  ['CAR (streamed)', `/ipfs/${ROOT}?format=car`, {}, 'GET', 200],
  ['TAR (streamed)', `/ipfs/${ROOT}?format=tar`, {}, 'GET', 200],
  ['dag-json', `/ipfs/${JSONROOT}?format=dag-json`, {}, 'GET', 200],
  ['dag-cbor', `/ipfs/${CBORROOT}?format=dag-cbor`, {}, 'GET', 200],
  ['HTML preview of a dag-json node', `/ipfs/${JSONROOT}/`, { accept: 'text/html' }, 'GET', 200],
  ['codec conversion refused', `/ipfs/${JSONROOT}?format=dag-cbor`, {}, 'GET', 406],
  ['path inside a node', `/ipfs/${JSONROOT}/foo?format=dag-json`, {}, 'GET', 501],
  ['not a CID', '/ipfs/not-a-cid', {}, 'GET', 400],
  ['unknown format', `/ipfs/${FILE}?format=nope`, {}, 'GET', 400],
  ['content not held', `/ipfs/${MISSING}`, {}, 'GET', 404],
  ['only-if-cached miss', `/ipfs/${MISSING}`, { 'cache-control': 'only-if-cached' }, 'HEAD', 412],
  ['name', `/ipns/${NAME}/`, {}, 'GET', 200],
  ['signed record', `/ipns/${NAME}?format=ipns-record`, {}, 'GET', 200],
  ['peer-ID name redirected', `/ipns/${PEER_ID}/a`, {}, 'GET', 302],
  ['unknown name', '/ipns/unknown.example.org', {}, 'GET', 404],
];

describe('gateway: every response carries Content-Security-Policy: sandbox and X-Content-Type-Options: nosniff', () => {
  it.each(cases)('%s: %s', async (_what, path, headers, method, status) => {
    const res = await gw.get(path, headers, method);
    expect(res.status).toBe(status);
    expect(res.headers['content-security-policy']).toBe('sandbox');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('the generated listing needs nothing the sandbox takes away: no script, no form, no frame, no external resource', async () => {
    for (const path of [`/ipfs/${ROOT}/`, `/ipfs/${ROOT}/%C4%85/%C4%99/`]) {
      const html = (await gw.get(path)).text;
      expect(html).toContain('Index of');
      expect(html).not.toMatch(/<script|<form|<iframe|<object|<embed|<link|\son[a-z]+=|javascript:|target=/i);
    }
    const preview = (await gw.get(`/ipfs/${JSONROOT}/`, { accept: 'text/html' })).text;
    expect(preview).toContain('</html>');
    expect(preview).not.toMatch(/<script|<form|<iframe|<object|<embed|<link|\son[a-z]+=|javascript:|target=/i);
  });
});
