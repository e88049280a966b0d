import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GC, storeFromCars } from '../../content/read/fixture-store.js';
import { startGateway, type Harness } from './gateway-harness.js';

const JSONROOT = 'baguqeeram5ujjqrwheyaty3w5gdsmoz6vittchvhk723jjqxk7hakxkd47xq';
const CBORROOT = 'bafyreibs4utpgbn7uqegmd2goqz4bkyflre2ek2iwv743fhvylwi4zeeim';
const PLAINJSON = 'bagaaierajjsnhsxqlgfrvknlt7z2heoljcgfv37cn45tu7mhmr23x3ekiboq';
const PLAINCBOR = 'bafireif3aymeikgfbofx533yf5vlx4kimzq6zmzmpra2mnzfsfnmv4hchm';
const TJSON = 'bafkreibrppizs3g7axs2jdlnjua6vgpmltv7k72l7v7sa6mmht6mne3qqe';
const TXT = 'bafkreialihlqnf5uwo4byh4n3cmwlntwqzxxs2fg5vanqdi3d7tb2l5xkm';
const IMMUTABLE = 'public, max-age=29030400, immutable';

let gw: Harness;

beforeAll(async () => {
  const store = await storeFromCars(
    `${GC}path_gateway_dag/dag-json-traversal.car`,
    `${GC}path_gateway_dag/dag-cbor-traversal.car`,
    `${GC}path_gateway_dag/plain-json.car`,
    `${GC}path_gateway_dag/plain-cbor.car`,
    `${GC}path_gateway_dag/gateway-json-cbor.car`,
  );
  gw = await startGateway(store);
});

afterAll(async () => {
  await gw.close();
});

describe('gateway: dag-json and dag-cbor', () => {
  it('paths through links, 501 inside a node, 404 for missing keys', async () => {
    const inside = await gw.get(`/ipfs/${JSONROOT}/foo?format=dag-json`);
    expect(inside.status).toBe(501);
    expect(JSON.parse(inside.text)).toMatchObject({ code: 501, error: 'not_implemented' });
    const bar = await gw.get(`/ipfs/${JSONROOT}/foo/link/bar?format=dag-json`);
    expect(bar.status).toBe(200);
    expect(JSON.parse(bar.text)).toEqual({ hello: 'this is not a link' });
    expect((await gw.get(`/ipfs/${JSONROOT}/foo/i-do-not-exist`)).status).toBe(404);
    expect((await gw.get(`/ipfs/${CBORROOT}/foo?format=dag-cbor`)).status).toBe(501);
    const cbor = await gw.get(`/ipfs/${CBORROOT}/foo/link/bar?format=dag-cbor`);
    expect(cbor.body.toString('hex')).toBe('a16568656c6c6f7274686973206973206e6f742061206c696e6b');
    expect((await gw.get(`/ipfs/${CBORROOT}/foo/i-do-not-exist`)).status).toBe(404);
  });

  it('serves the native block with codec headers', async () => {
    const cases = [
      { root: JSONROOT, f: 'json', length: 124, disposition: `inline; filename="${JSONROOT}.json"` },
      { root: CBORROOT, f: 'cbor', length: 76, disposition: `attachment; filename="${CBORROOT}.cbor"` },
    ];
    for (const { root, f, length, disposition } of cases) {
      const plain = await gw.get(`/ipfs/${root}`);
      expect(plain.status).toBe(200);
      expect(plain.headers['content-type']).toBe(`application/vnd.ipld.dag-${f}`);
      expect(plain.body.byteLength).toBe(length);
      const accepted = await gw.get(`/ipfs/${root}`, { accept: `application/vnd.ipld.dag-${f}` });
      expect(accepted.headers['content-type']).toBe(`application/vnd.ipld.dag-${f}`);
      expect(accepted.headers['content-length']).toBe(String(length));
      expect(accepted.headers['content-disposition']).toContain(disposition);
      expect(accepted.headers.etag).toBe(`"${root}.dag-${f}"`);
      expect(accepted.headers['cache-control']).toBe(IMMUTABLE);
      expect(accepted.headers['x-ipfs-roots']).toBe(root);
      const asPlain = await gw.get(`/ipfs/${root}?format=${f}`);
      expect(asPlain.headers['content-type']).toBe(`application/${f}`);
      expect(asPlain.body.equals(plain.body)).toBe(true);
      const named = await gw.get(`/ipfs/${root}?format=dag-${f}&filename=foobar.${f}`);
      expect(named.headers['content-disposition']).toContain(`filename="foobar.${f}"`);
      const download = await gw.get(`/ipfs/${root}?format=dag-${f}&filename=foobar.${f}&download=true`);
      expect(download.headers['content-disposition']).toBe(`attachment; filename="foobar.${f}"`);
      const head = await gw.get(`/ipfs/${root}?format=dag-${f}`, {}, 'HEAD');
      expect(head.headers.etag).toContain(`${root}.dag-${f}`);
      expect(head.body.byteLength).toBe(0);
      const range = await gw.get(`/ipfs/${root}`, { range: 'bytes=2-9' });
      expect(range.status).toBe(206);
      expect(range.body.equals(plain.body.subarray(2, 10))).toBe(true);
    }
  });

  it('gives browsers an HTML preview (DagIndex) that is not immutable', async () => {
    const res = await gw.get(`/ipfs/${JSONROOT}/`, { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' });
    expect(res.status).toBe(200);
    expect(res.headers.etag).toContain('DagIndex-');
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.headers['content-disposition']).toBeUndefined();
    expect(res.headers['cache-control']).toBeUndefined();
    expect(res.text).toContain('</html>');
    expect(res.text).toContain('banana');
    const cbor = await gw.get(`/ipfs/${CBORROOT}/`, { accept: 'text/html' });
    expect(cbor.text).toContain('</html>');
  });

  it('refuses codec conversion with 406', async () => {
    expect((await gw.get(`/ipfs/${JSONROOT}?format=dag-cbor`)).status).toBe(406);
    expect((await gw.get(`/ipfs/${CBORROOT}?format=dag-json`)).status).toBe(406);
    expect((await gw.get(`/ipfs/${CBORROOT}`, { accept: 'application/vnd.ipld.dag-json' })).status).toBe(406);
    for (const query of ['?format=dag-json', '?format=dag-cbor']) {
      expect((await gw.get(`/ipfs/${TXT}${query}`)).status, query).toBe(406);
    }
    expect((await gw.get(`/ipfs/${TXT}`, { accept: 'application/vnd.ipld.dag-json' })).status).toBe(406);
  });

  it('serves plain json and cbor blocks as they are', async () => {
    for (const headers of [{}, { accept: 'application/json' }] as Array<Record<string, string>>) {
      const res = await gw.get(`/ipfs/${PLAINJSON}`, headers);
      expect(res.headers['content-type']).toBe('application/json');
      expect(JSON.parse(res.text)).toEqual({ test: 'plain json' });
      expect(res.headers['content-disposition']).toContain(`inline; filename="${PLAINJSON}.json"`);
    }
    const viaFormat = await gw.get(`/ipfs/${PLAINJSON}?format=json`);
    expect(viaFormat.headers['content-type']).toBe('application/json');
    for (const [path, headers] of [
      [`/ipfs/${PLAINCBOR}`, {}],
      [`/ipfs/${PLAINCBOR}?format=cbor`, {}],
      [`/ipfs/${PLAINCBOR}`, { accept: 'application/cbor' }],
    ] as const) {
      const res = await gw.get(path, headers);
      expect(res.headers['content-type']).toBe('application/cbor');
      expect(res.body.toString('hex')).toBe('a164746573746a706c61696e206a736f6e');
      expect(res.headers['content-disposition']).toContain(`attachment; filename="${PLAINCBOR}.cbor"`);
    }
  });

  it('serves a UnixFS file holding JSON as application/json', async () => {
    for (const [query, headers] of [
      ['', {}],
      ['', { accept: 'application/json' }],
      ['?format=json', { accept: 'application/vnd.ipld.raw' }],
    ] as const) {
      const res = await gw.get(`/ipfs/${TJSON}${query}`, headers);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/json');
      expect(res.text).toBe('{ "test": "i am a plain json file" }\n');
    }
  });
});
