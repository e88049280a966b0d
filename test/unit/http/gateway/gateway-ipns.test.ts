import { readFile } from 'node:fs/promises';
import type { FastifyRequest } from 'fastify';
import { MemoryBlockstore } from 'blockstore-core/memory';
import { CID } from 'multiformats/cid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LimitReachedError } from '../../../../main/base/errors.js';
import { GC, fixturePath, storeFromCars } from '../../content/read/fixture-store.js';
import { startGateway, type Harness } from './gateway-harness.js';

const NAME = 'k51qzi5uqu5dlxdsdu5fpuu7h69wu4ohp32iwm9pdt9nq3y5rpn3ln9j12zfhe';
const RECORD_NAME = 'k51qzi5uqu5dlkw8pxuw9qmqayfdeh4kfebhmreauqdc6a7c3y7d5i9fi8mk9w';
const DNS = 'example.net';
const PEER_ID = '12D3KooWRBy97UB99e3J6hiPesre1MZeuNQvfan4gBziswrRJsNK';
const PEER_ID_NAME = 'k51qzi5uqu5dlvj2baxnqndepeb86cbk3ng7n3i46uzyxzyqj2xjonzllnv0v8';
const RSA_PEER_ID = 'QmcJM7PRfkSbcM5cf1QugM5R37TLRKyJGgBEhXjLTB8uA2';
const RSA_PEER_ID_NAME = 'k2k4r8ol4m8kkcqz509c1rcjwunebj02gcnm5excpx842u736nja8ger';
/** The gateway only looks at which credential a request carries; the server's hook has verified it. */
const SIGNED = { 'x-access-key': 'k', 'x-access-signature': 's' };
const [R1, R2, R3, R4, F] = [
  'bafybeib3ffl2teiqdncv3mkz4r23b5ctrwkzrrhctdbne6iboayxuxk5ui',
  'bafybeih2w7hjocxjg6g2ku25hvmd53zj7og4txpby3vsusfefw5rrg5sii',
  'bafybeiawdvhmjcz65x5egzx4iukxc72hg4woks6v6fvgyupiyt3oczk5ja',
  'bafybeifq2rzpqnqrsdupncmkmhs3ckxxjhuvdcbvydkgvch3ms24k5lo7q',
  'bafkreicysg23kiwv34eg2d7qweipxwosdo2py4ldv42nbauguluen5v6am',
];

let gw: Harness;
let record: Uint8Array;
const egress: number[] = [];
let refuse = false;

beforeAll(async () => {
  record = await readFile(fixturePath(`${GC}ipns_records/${RECORD_NAME}_v1-v2.ipns-record`));
  const store = await storeFromCars(`${GC}gateway-cache/fixtures.car`, 'boxo/gateway/testdata/ipns-hostname-redirects.car');
  gw = await startGateway(store, {
    names: {
      [NAME]: { cid: CID.parse(R1), path: [], ttlSeconds: 3155760000, record: new Uint8Array(8) },
      [RECORD_NAME]: { cid: CID.parse('bafkqaddwgevxmmraojswg33smq'), path: [], ttlSeconds: 1800, record },
      [DNS]: { cid: CID.parse('bafybeidnfzfojuxqvqttbwzb2g3wthsysyhmfuzhcwbu77kv5c3n6b4ugy'), path: [], ttlSeconds: 30 },
      'sub.example.net': { cid: CID.parse(R1), path: ['root2'], ttlSeconds: 0 },
      // The canonical forms of the two peer IDs below.
      [PEER_ID_NAME]: { cid: CID.parse(R1), path: [], ttlSeconds: 60 },
      [RSA_PEER_ID_NAME]: { cid: CID.parse(R1), path: ['root2'], ttlSeconds: 60 },
    },
    beforeBody: (_request: FastifyRequest, bytes: number) => {
      if (refuse) throw new LimitReachedError('egress');
      void bytes;
    },
    onBodyBytes: (_request: FastifyRequest, bytes: number) => {
      egress.push(bytes);
    },
  });
});

afterAll(async () => {
  await gw.close();
});

describe('gateway: /ipns', () => {
  it('serves listings, index.html and files under a name with TTL caching', async () => {
    const listing = await gw.get(`/ipns/${NAME}/root2/root3/`);
    expect(listing.status).toBe(200);
    expect(listing.headers['x-ipfs-path']).toBe(`/ipns/${NAME}/root2/root3/`);
    expect(listing.headers['x-ipfs-roots']).toBe(`${R1},${R2},${R3}`);
    expect(listing.headers.etag).toMatch(new RegExp(`DirIndex-.*_CID-${R3}`));
    expect(listing.headers['cache-control']).toMatch(/^public, max-age=\d+$/);
    const index = await gw.get(`/ipns/${NAME}/root2/root3/root4/`);
    expect(index.headers.etag).toBe(`"${R4}"`);
    expect(index.headers['x-ipfs-roots']).toBe(`${R1},${R2},${R3},${R4}`);
    const file = await gw.get(`/ipns/${NAME}/root2/root3/root4/index.html`);
    expect(file.headers.etag).toBe(`"${F}"`);
    expect(file.headers['x-ipfs-roots']).toBe(`${R1},${R2},${R3},${R4},${F}`);
    expect(file.headers['cache-control']).toMatch(/^public, max-age=\d+$/);
    expect((await gw.get(`/ipns/${NAME}/root2/root3/root4/index.html`, { 'if-none-match': `"${F}"` })).status).toBe(304);
    const raw = await gw.get(`/ipns/${NAME}/root2/root3/root4/?format=raw`);
    expect(raw.body.byteLength).toBe(58);
  });

  it('takes Cache-Control max-age from the TTL (DNSLink) and follows a value path', async () => {
    for (const path of [`/ipns/${DNS}/`, `/ipns/${DNS}/foo/`, `/ipns/${DNS}/foo/index.html`, `/ipns/${DNS}/?format=raw`, `/ipns/${DNS}/?format=car`]) {
      const res = await gw.get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers['cache-control'], path).toBe('public, max-age=30');
    }
    const redirect = await gw.get(`/ipns/${DNS}/foo`);
    expect(redirect.status).toBe(301);
    expect(redirect.headers.location).toBe(`/ipns/${DNS}/foo/`);
    const sub = await gw.get('/ipns/sub.example.net/root3/root4/index.html');
    expect(sub.text).toBe('hello\n');
    expect(sub.headers['cache-control']).toBeUndefined();
  });

  it('returns the signed record with format=ipns-record or its Accept type', async () => {
    for (const [path, headers] of [
      [`/ipns/${RECORD_NAME}?format=ipns-record`, {}],
      [`/ipns/${RECORD_NAME}`, { accept: 'application/vnd.ipfs.ipns-record' }],
    ] as const) {
      const res = await gw.get(path, headers);
      expect(res.status).toBe(200);
      expect(res.headers['content-disposition']).toContain('attachment;');
      expect(res.headers['content-type']).toContain('application/vnd.ipfs.ipns-record');
      expect(res.headers['cache-control']).toContain('public, max-age=1800');
      expect(res.body.equals(Buffer.from(record))).toBe(true);
    }
    const named = await gw.get(`/ipns/${RECORD_NAME}?format=ipns-record&filename=${encodeURIComponent('testтест.ipns-record')}`);
    expect(named.headers['content-disposition']).toContain(
      `attachment; filename="test____.ipns-record"; filename*=UTF-8''test%D1%82%D0%B5%D1%81%D1%82.ipns-record`,
    );
    expect((await gw.get(`/ipns/${DNS}?format=ipns-record`)).status).toBe(400);
    const body = await gw.get(`/ipns/${RECORD_NAME}`);
    expect(body.text).toBe('v1+v2 record');
  });

  it('redirects peer-ID names to their canonical base36 form, keeping path and query', async () => {
    const a = await gw.get('/ipns/12D3KooWRBy97UB99e3J6hiPesre1MZeuNQvfan4gBziswrRJsNK/root2/');
    expect(a.status).toBe(302);
    expect(a.headers.location).toBe('/ipns/k51qzi5uqu5dlvj2baxnqndepeb86cbk3ng7n3i46uzyxzyqj2xjonzllnv0v8/root2/');
    const b = await gw.get('/ipns/QmcJM7PRfkSbcM5cf1QugM5R37TLRKyJGgBEhXjLTB8uA2/root2/');
    expect(b.headers.location).toBe('/ipns/k2k4r8ol4m8kkcqz509c1rcjwunebj02gcnm5excpx842u736nja8ger/root2/');
    const c = await gw.get('/ipns/12D3KooWRBy97UB99e3J6hiPesre1MZeuNQvfan4gBziswrRJsNK?keep=query');
    expect(c.headers.location).toBe('/ipns/k51qzi5uqu5dlvj2baxnqndepeb86cbk3ng7n3i46uzyxzyqj2xjonzllnv0v8?keep=query');
  });

  it('serves a peer-ID name in place for a signed request (contract section 2), path and query kept', async () => {
    const listing = await gw.get(`/ipns/${PEER_ID}/root2/root3/?keep=query`, SIGNED);
    expect(listing.status).toBe(200);
    expect(listing.headers['x-ipfs-path']).toBe(`/ipns/${PEER_ID}/root2/root3/`);
    expect(listing.headers['x-ipfs-roots']).toBe(`${R1},${R2},${R3}`);
    const file = await gw.get(`/ipns/${PEER_ID}/root2/root3/root4/index.html`, SIGNED);
    expect(file.status).toBe(200);
    expect(file.headers.etag).toBe(`"${F}"`);
    // The RSA form (Qm…), whose name points into the tree.
    const rsa = await gw.get(`/ipns/${RSA_PEER_ID}/root3/`, SIGNED);
    expect(rsa.status).toBe(200);
    expect(rsa.headers['x-ipfs-roots']).toBe(`${R1},${R2},${R3}`);
    // A directory without its slash still redirects, staying on the form the client signed.
    const dir = await gw.get(`/ipns/${PEER_ID}/root2?keep=query`, SIGNED);
    expect(dir.status).toBe(301);
    expect(dir.headers.location).toBe(`/ipns/${PEER_ID}/root2/?keep=query`);
  });

  it('still redirects a peer-ID name for a request with the secret (it follows with a valid header)', async () => {
    const secret = await gw.get(`/ipns/${PEER_ID}/root2/`, { 'x-access-key': 'k', 'x-access-secret': 'x', 'x-access-signature': 's' });
    expect(secret.status).toBe(302);
    expect(secret.headers.location).toBe(`/ipns/${PEER_ID_NAME}/root2/`);
  });

  it('answers 404 for unknown names', async () => {
    expect((await gw.get('/ipns/unknown.example.org/')).status).toBe(404);
  });
});

describe('gateway: /ipns of a name held elsewhere (contract section 11)', () => {
  it('reads its content through the foreign store, and a held name only from the store', async () => {
    const network = await storeFromCars(`${GC}gateway-cache/fixtures.car`);
    const foreign = await startGateway(new MemoryBlockstore(), {
      names: {
        [NAME]: { cid: CID.parse(R1), path: [], ttlSeconds: 60, held: false },
        [PEER_ID_NAME]: { cid: CID.parse(R1), path: [], ttlSeconds: 60, held: true },
      },
      foreignBlockstore: network,
    });
    try {
      const file = await foreign.get(`/ipns/${NAME}/root2/root3/root4/index.html`);
      expect(file.status).toBe(200);
      expect(file.text).toBe('hello\n');
      expect((await foreign.get(`/ipns/${PEER_ID_NAME}/root2/root3/root4/index.html`)).status).toBe(404);
      expect((await foreign.get(`/ipfs/${R1}/root2/root3/root4/index.html`)).status).toBe(404);
    } finally {
      await foreign.close();
    }
  });
});

describe('gateway: egress hooks', () => {
  it('counts the body bytes sent and none for HEAD or 304', async () => {
    egress.length = 0;
    await gw.get(`/ipfs/${R1}/root2/root3/root4/index.html`);
    expect(egress.reduce((a, b) => a + b, 0)).toBe(6);
    egress.length = 0;
    const listing = await gw.get(`/ipfs/${R1}/root2/root3/`);
    expect(egress.reduce((a, b) => a + b, 0)).toBe(listing.body.byteLength);
    egress.length = 0;
    await gw.get(`/ipfs/${R1}/root2/root3/root4/index.html`, {}, 'HEAD');
    await gw.get(`/ipfs/${R1}/root2/root3/root4/index.html`, { 'if-none-match': `"${F}"` });
    expect(egress).toEqual([]);
  });

  it('refuses the body when beforeBody throws, sending nothing', async () => {
    refuse = true;
    egress.length = 0;
    try {
      const res = await gw.get(`/ipfs/${R1}/root2/root3/root4/index.html`);
      expect(res.status).toBe(403);
      expect(JSON.parse(res.text)).toMatchObject({ code: 403, msg: 'plan limit reached: egress', error: 'plan_limit' });
      expect(res.headers['cache-control']).toBeUndefined();
      expect(res.headers.etag).toBeUndefined();
      expect(egress).toEqual([]);
    } finally {
      refuse = false;
    }
  });
});
