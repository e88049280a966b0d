import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GC, storeFromCars } from '../../content/read/fixture-store.js';
import { startGateway, type Harness } from './gateway-harness.js';

const DIR = '/ipfs/bafybeihchr7vmgjaasntayyatmp5sv6xza57iy2h4xj7g46bpjij6yhrmy';
const BIG = '/ipfs/bafybeiae5abzv6j3ucqbzlpnx3pcqbr2otbnpot7d2k5pckmpymin4guau';
let gw: Harness;

beforeAll(async () => {
  const store = await storeFromCars(
    `${GC}path_gateway_unixfs/dir-with-files.car`,
    `${GC}gateway-raw-block.car`,
    'kubo/test/cli/fixtures/TestGatewayMultiRange.car',
  );
  gw = await startGateway(store);
});

afterAll(async () => {
  await gw.close();
});

describe('gateway: byte ranges', () => {
  it('serves whole files with Accept-Ranges', async () => {
    const res = await gw.get(`${DIR}/ascii.txt`);
    expect(res.status).toBe(200);
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(res.body.byteLength).toBe(31);
  });

  it('answers single ranges with 206 and Content-Range', async () => {
    const mid = await gw.get(`${DIR}/ascii.txt`, { range: 'bytes=6-16' });
    expect(mid.status).toBe(206);
    expect(mid.headers['content-range']).toBe('bytes 6-16/31');
    expect(mid.headers['content-length']).toBe('11');
    expect(mid.text).toBe('application');
    const suffix = await gw.get(`${DIR}/ascii.txt`, { range: 'bytes=-3' });
    expect(suffix.headers['content-range']).toBe('bytes 28-30/31');
    expect(suffix.text).toBe('ar\n');
    const open = await gw.get(`${DIR}/ascii.txt`, { range: 'bytes=25-' });
    expect(open.text).toBe('d.car\n');
    const clamped = await gw.get(`${DIR}/ascii.txt`, { range: 'bytes=28-1000' });
    expect(clamped.headers['content-range']).toBe('bytes 28-30/31');
  });

  it('answers a multi-range request with its first range only', async () => {
    const res = await gw.get(`${DIR}/ascii.txt`, { range: 'bytes=6-16,0-4' });
    expect(res.status).toBe(206);
    expect(res.headers['content-range']).toBe('bytes 6-16/31');
    expect(res.text).toBe('application');
  });

  it('reads ranges across the leaves of a multi-block file', async () => {
    const whole = await gw.get(`${DIR}/multiblock.txt`);
    const part = await gw.get(`${DIR}/multiblock.txt`, { range: 'bytes=250-800' });
    expect(part.status).toBe(206);
    expect(part.body.equals(whole.body.subarray(250, 801))).toBe(true);
  });

  it('answers 416 for a range past the end, and ignores unparsable ranges', async () => {
    const res = await gw.get(`${DIR}/ascii.txt`, { range: 'bytes=31-40' });
    expect(res.status).toBe(416);
    expect(res.headers['content-range']).toBe('bytes */31');
    expect(JSON.parse(res.text)).toMatchObject({ code: 416 });
    expect(res.headers['cache-control']).toBeUndefined();
    const junk = await gw.get(`${DIR}/ascii.txt`, { range: 'pages=1-2' });
    expect(junk.status).toBe(200);
    expect(junk.body.byteLength).toBe(31);
  });

  it('answers 416 for an open range starting at or past the end, the envelope and no body headers, GET and HEAD', async () => {
    for (const range of ['bytes=31-', 'bytes=999999999-', 'bytes=99999999999999999999-', 'bytes=-0', 'bytes=40-50, 31-']) {
      for (const method of ['GET', 'HEAD']) {
        const res = await gw.get(`${DIR}/ascii.txt`, { range }, method);
        expect(res.status, `${method} ${range}`).toBe(416);
        expect(res.headers['content-range']).toBe('bytes */31');
        for (const name of ['cache-control', 'etag', 'content-disposition', 'accept-ranges']) expect(res.headers[name], name).toBeUndefined();
        if (method === 'GET') {
          expect(res.headers['content-type']).toMatch(/^application\/json/);
          expect(JSON.parse(res.text)).toEqual({ code: 416, msg: 'range: not satisfiable for 31 bytes', error: 'range' });
        }
      }
    }
  });

  it('serves the first range that selects bytes, a too-long suffix as the whole file, and ignores sets it cannot parse', async () => {
    const skipFirst = await gw.get(`${DIR}/ascii.txt`, { range: 'bytes=40-50,6-16' });
    expect(skipFirst.status).toBe(206);
    expect(skipFirst.headers['content-range']).toBe('bytes 6-16/31');
    expect(skipFirst.text).toBe('application');
    const longSuffix = await gw.get(`${DIR}/ascii.txt`, { range: 'bytes=-5000' });
    expect(longSuffix.status).toBe(206);
    expect(longSuffix.headers['content-range']).toBe('bytes 0-30/31');
    expect(longSuffix.body.byteLength).toBe(31);
    const one = await gw.get(`${DIR}/ascii.txt`, { range: 'bytes=0-0' });
    expect(one.status).toBe(206);
    expect(one.headers['content-range']).toBe('bytes 0-0/31');
    expect(one.text).toBe('h');
    for (const range of ['bytes=16-6', 'bytes=abc', 'items=0-5']) {
      const ignored = await gw.get(`${DIR}/ascii.txt`, { range });
      expect(ignored.status, range).toBe(200);
      expect(ignored.body.byteLength).toBe(31);
    }
  });

  it('serves ranges of the 109 MB partial DAG from the blocks held', async () => {
    const a = await gw.get(BIG, { range: 'bytes=1276-1279' });
    expect(a.status).toBe(206);
    expect(a.headers['content-range']).toBe('bytes 1276-1279/109266405');
    expect(a.text).toBe('iana');
    const b = await gw.get(BIG, { range: 'bytes=29839070-29839080' });
    expect(b.headers['content-range']).toBe('bytes 29839070-29839080/109266405');
    expect(b.text).toBe('EXAMPLE.COM');
    const both = await gw.get(BIG, { range: 'bytes=1276-1279, 29839070-29839080' });
    expect(both.status).toBe(206);
    expect(both.headers['content-range']).toBe('bytes 1276-1279/109266405');
    expect(both.text).toBe('iana');
    const head = await gw.get(BIG, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe('109266405');
  });

  it('applies ranges to raw blocks', async () => {
    const res = await gw.get('/ipfs/bafybeie72edlprgtlwwctzljf6gkn2wnlrddqjbkxo3jomh4n7omwblxly/dir?format=raw', { range: 'bytes=6-16' });
    expect(res.status).toBe(206);
    expect(res.headers['content-type']).toBe('application/vnd.ipld.raw');
    expect(res.headers['content-range']).toBe('bytes 6-16/57');
    const whole = await gw.get('/ipfs/bafybeie72edlprgtlwwctzljf6gkn2wnlrddqjbkxo3jomh4n7omwblxly/dir', { accept: 'application/vnd.ipld.raw' });
    expect(whole.body.byteLength).toBe(57);
    expect(res.body.equals(whole.body.subarray(6, 17))).toBe(true);
  });
});
